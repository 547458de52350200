import type { ScriptedPolicy } from '../../gym/agents';
import type { TilesMasterVerifierState } from '../../verifiers/tiles-master';
import { TRAY_SIZE, isFree, type Tile } from './logic';

/**
 * Tray-aware greedy picker over the free tiles:
 * 1. finish a triple whose other two tiles are already in the tray;
 * 2. else work on a symbol that can be finished from the tray plus free tiles right now,
 *    preferring the one already in the tray;
 * 3. else take the tile that uncovers the most others, preferring symbols already in the
 *    tray and avoiding new symbols when the tray is nearly full.
 * Returns the preset index of the tile's click point.
 */

const policy: ScriptedPolicy<TilesMasterVerifierState> = (s) => {
  const tiles: Tile[] = s.tiles.map((t) => ({ id: t.id, x: t.x, y: t.y, layer: t.layer, symbol: t.symbol }));
  const free = s.tiles.filter((t) => t.free);
  if (free.length === 0) return 0;
  const inTray = new Map<number, number>();
  for (const v of s.tray) inTray.set(v, (inTray.get(v) ?? 0) + 1);
  const freeOf = new Map<number, number>();
  for (const t of free) freeOf.set(t.symbol, (freeOf.get(t.symbol) ?? 0) + 1);
  const room = TRAY_SIZE - s.tray.length;

  let best = { value: -Infinity, point: free[0].point };
  for (const t of free) {
    const have = inTray.get(t.symbol) ?? 0;
    const avail = freeOf.get(t.symbol) ?? 0;
    let value: number;
    if (have === 2) value = 1000;
    else if (have + avail >= 3 && 3 - have <= room) value = 500 + have * 50;
    else {
      const rest = tiles.filter((o) => o.id !== t.id);
      const opened = rest.filter((o) => o.layer < t.layer && !isFree(tiles, o) && isFree(rest, o)).length;
      value = opened * 10 + have * 30 - (have === 0 && room <= 3 ? 200 : 0);
    }
    // Tiles on higher layers hide more: take them first on ties.
    value += t.layer * 0.5;
    if (value > best.value) best = { value, point: t.point };
  }
  return best.point;
};
export default policy;
