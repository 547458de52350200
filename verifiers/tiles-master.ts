import { defineVerifier } from './define';
import { readGlobal } from './read-global';

interface RawTile {
  id: number;
  x: number;
  y: number;
  layer: number;
  symbol: number;
}
interface TilesMasterGlobals {
  level: number;
  tiles: RawTile[];
  tray: number[];
  score: number;
  symbols: number;
  layers: number;
  cleared: number;
  picks: number;
  gameOver: boolean;
}

export interface TilesMasterTile extends RawTile {
  /** No tile of a higher layer overlaps it: a click takes it. */
  free: boolean;
  /** Preset index (row * 7 + column) of the click point inside this tile. */
  point: number;
}

export interface TilesMasterVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  tiles: TilesMasterTile[];
  tray: number[];
  traySize: number;
  /** Symbols this level deals from: 0..symbols-1. */
  symbols: number;
  layers: number;
  remaining: number;
  cleared: number;
  picks: number;
  [key: string]: unknown;
}

const UNITS = 7;
const SYMBOLS = 12;
const TRAY = 7;

const names: string[] = [];
for (const f of ['free', 'tray_same', 'free_same']) for (let p = 0; p < UNITS * UNITS; p++) names.push(`${f}_p${p}`);
for (let k = 0; k < SYMBOLS; k++) names.push(`tray_count_s${k}`);
for (let k = 0; k < SYMBOLS; k++) names.push(`free_count_s${k}`);
names.push('tray_fill', 'remaining', 'level');

export default defineVerifier<TilesMasterVerifierState>({
  gameId: 'tiles-master',
  read: readGlobal('tilesMaster', (s: TilesMasterGlobals) => {
    const tiles = s.tiles.map((t) => {
      const free = !s.tiles.some((o) => o.layer > t.layer && Math.abs(o.x - t.x) < 1 && Math.abs(o.y - t.y) < 1);
      return { id: t.id, x: t.x, y: t.y, layer: t.layer, symbol: t.symbol, free, point: Math.floor(t.y) * UNITS + Math.floor(t.x) };
    });
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      tiles,
      tray: s.tray.slice(),
      traySize: TRAY,
      symbols: s.symbols,
      layers: s.layers,
      remaining: s.tiles.length,
      cleared: s.cleared,
      picks: s.picks,
    };
  }),
  features: {
    // Per click point, of the free tile there (all 0 if none): that it is there, how many of its
    // symbol the tray holds and how many free tiles show it (÷ 3, a triple). Symbols are kinds,
    // not quantities: written as numbers, "this tile matches the tray" was a comparison the
    // network had to learn for every point and symbol. Then tray and free counts per symbol;
    // tray fill, tiles left and level.
    names,
    encode(s) {
      const points = new Array<number>(UNITS * UNITS).fill(-1);
      const trayCount = new Array<number>(SYMBOLS).fill(0);
      const freeCount = new Array<number>(SYMBOLS).fill(0);
      for (const t of s.tiles) {
        if (!t.free) continue;
        points[t.point] = t.symbol;
        freeCount[t.symbol] += 1 / 3;
      }
      for (const v of s.tray) trayCount[v] += 1 / 3;
      return [
        ...points.map((k) => (k < 0 ? 0 : 1)),
        ...points.map((k) => (k < 0 ? 0 : trayCount[k])),
        ...points.map((k) => (k < 0 ? 0 : freeCount[k])),
        ...trayCount,
        ...freeCount,
        s.tray.length / TRAY,
        s.remaining / 60,
        s.level / 10,
      ];
    },
  },
  // One entry per click point: a click takes the topmost tile under the point, and the game
  // ignores it unless that tile is free. The one tile whose point it is lies under it, and any
  // tile above would cover that tile, so the point takes a tile exactly when a free tile has it.
  actionMask(s) {
    const mask = new Array<number>(UNITS * UNITS).fill(0);
    for (const t of s.tiles) if (t.free) mask[t.point] = 1;
    return mask;
  },
});
