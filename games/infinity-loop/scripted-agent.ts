import type { ScriptedPolicy } from '../../gym/agents/agent';
import type { InfinityLoopVerifierState } from '../../verifiers/infinity-loop';

/**
 * Solves the board with a row-major backtracking search (each tile's openings must agree
 * with the tiles above and to the left, never point off the board or into an empty cell),
 * trying the cheapest rotations first, then taps the first tile not yet in its solved
 * orientation. The search is deterministic, so successive steps aim at the same solution.
 */
const rot = (m: number) => ((m << 1) | (m >> 3)) & 15;

export function solveRotations(cols: number, rows: number, tiles: readonly number[], maxNodes = 200_000): number[] | null {
  const n = cols * rows;
  const candidates: number[][] = tiles.map((m) => {
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
    if (x < cols - 1 && tiles[i + 1] === 15 && !east) return false;
    if (y < rows - 1 && tiles[i + cols] === 15 && !south) return false;
    return true;
  };
  const go = (i: number): boolean => {
    if (i === n) return true;
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

const policy: ScriptedPolicy<InfinityLoopVerifierState> = (s) => {
  const sol = solveRotations(s.cols, s.rows, s.tiles);
  if (sol) {
    for (let i = 0; i < s.tiles.length; i++) if (s.tiles[i] !== sol[i]) return i;
  }
  // No solution found in budget: turn the first tile with an unmatched opening.
  const DX = [0, 1, 0, -1];
  const DY = [-1, 0, 1, 0];
  for (let i = 0; i < s.tiles.length; i++) {
    const m = s.tiles[i];
    const x = i % s.cols;
    const y = Math.floor(i / s.cols);
    for (let d = 0; d < 4; d++) {
      if (!(m & (1 << d))) continue;
      const nx = x + DX[d];
      const ny = y + DY[d];
      if (nx < 0 || ny < 0 || nx >= s.cols || ny >= s.rows || !(s.tiles[ny * s.cols + nx] & (1 << ((d + 2) % 4)))) return i;
    }
  }
  return 0;
};
export default policy;
