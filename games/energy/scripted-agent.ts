import type { ScriptedPolicy } from '../../gym/agents/agent';
import type { EnergyVerifierState } from '../../verifiers/energy';

/**
 * Finds an orientation of every tile in which all openings meet (row-major backtracking,
 * cheapest rotations first) and every bulb is joined to the source, then taps the first tile
 * that is not yet turned that way. Deterministic, so successive steps aim at one solution.
 */
const rot = (m: number) => ((m << 1) | (m >> 3)) & 15;
const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];

function connected(cols: number, rows: number, sol: number[], source: number, bulbs: number[]): boolean {
  const seen = new Uint8Array(cols * rows);
  seen[source] = 1;
  const stack = [source];
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % cols;
    const y = Math.floor(i / cols);
    for (let d = 0; d < 4; d++) {
      if (!(sol[i] & (1 << d))) continue;
      const nx = x + DX[d];
      const ny = y + DY[d];
      if (nx < 0 || ny < 0 || nx >= cols || ny >= rows) continue;
      const j = ny * cols + nx;
      if (!seen[j] && sol[j] & (1 << ((d + 2) % 4))) {
        seen[j] = 1;
        stack.push(j);
      }
    }
  }
  return bulbs.every((b) => seen[b]);
}

export function solveEnergy(s: Pick<EnergyVerifierState, 'cols' | 'rows' | 'tiles' | 'source' | 'bulbs'>, maxNodes = 200_000): number[] | null {
  const { cols, rows, tiles } = s;
  const n = cols * rows;
  const candidates = tiles.map((m) => {
    const out: number[] = [];
    let r = m;
    for (let k = 0; k < 4; k++) {
      if (!out.includes(r)) out.push(r);
      r = rot(r);
    }
    return out;
  });
  const sol = new Array<number>(n).fill(0);
  let nodes = 0;
  const fits = (i: number, c: number): boolean => {
    const x = i % cols;
    const y = Math.floor(i / cols);
    const north = y === 0 ? 0 : (sol[i - cols] >> 2) & 1;
    const west = x === 0 ? 0 : (sol[i - 1] >> 1) & 1;
    if ((c & 1) !== north || ((c >> 3) & 1) !== west) return false;
    const east = (c >> 1) & 1;
    const south = (c >> 2) & 1;
    if (x === cols - 1 ? east : east && tiles[i + 1] === 0) return false;
    if (y === rows - 1 ? south : south && tiles[i + cols] === 0) return false;
    return true;
  };
  const go = (i: number): boolean => {
    if (i === n) return connected(cols, rows, sol, s.source, s.bulbs);
    if (++nodes > maxNodes) return false;
    for (const c of candidates[i]) {
      if (!fits(i, c)) continue;
      sol[i] = c;
      if (go(i + 1)) return true;
    }
    return false;
  };
  return go(0) ? sol : null;
}

const policy: ScriptedPolicy<EnergyVerifierState> = (s) => {
  const sol = solveEnergy(s);
  if (sol) {
    for (let i = 0; i < s.tiles.length; i++) if (s.tiles[i] !== sol[i]) return i;
  }
  // Fallback: turn the first powered tile that has an opening leading nowhere.
  for (let i = 0; i < s.tiles.length; i++) {
    if (!s.powered[i]) continue;
    const x = i % s.cols;
    const y = Math.floor(i / s.cols);
    for (let d = 0; d < 4; d++) {
      if (!(s.tiles[i] & (1 << d))) continue;
      const nx = x + DX[d];
      const ny = y + DY[d];
      if (nx < 0 || ny < 0 || nx >= s.cols || ny >= s.rows || !(s.tiles[ny * s.cols + nx] & (1 << ((d + 2) % 4)))) return i;
    }
  }
  return s.tiles.findIndex((m) => m !== 0 && m !== 15);
};
export default policy;
