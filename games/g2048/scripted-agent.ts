import type { ScriptedPolicy } from '../../gym/agents';
import type { G2048VerifierState } from '../../verifiers/g2048';
import { DIRS, canMove, emptyCells, slide, type Grid } from './logic';

/**
 * Corner strategy with a two-ply expectimax: for each move, average over where the new tile
 * may spawn (2 at 90%, 4 at 10%), take the best reply, and score the result by a snake-shaped
 * weight matrix that keeps big tiles ordered towards the top-left corner, plus free cells.
 * Preset indices follow DIRS: up, right, down, left.
 */

const WEIGHTS = [
  [2 ** 15, 2 ** 14, 2 ** 13, 2 ** 12],
  [2 ** 8, 2 ** 9, 2 ** 10, 2 ** 11],
  [2 ** 7, 2 ** 6, 2 ** 5, 2 ** 4],
  [2 ** 0, 2 ** 1, 2 ** 2, 2 ** 3],
];

function evaluate(g: Grid): number {
  if (!canMove(g)) return -1e12;
  let s = 0;
  let empty = 0;
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      const v = g[r][c];
      if (!v) empty++;
      else s += v * WEIGHTS[r][c];
    }
  }
  return s + empty * 2 ** 13;
}

function bestReply(g: Grid): number {
  let best = -Infinity;
  for (const d of DIRS) {
    const r = slide(g, d);
    if (r.moved) best = Math.max(best, evaluate(r.grid) + r.gained * 64);
  }
  return best === -Infinity ? -1e12 : best;
}

function expectation(g: Grid): number {
  const free = emptyCells(g);
  if (free.length === 0) return bestReply(g);
  let total = 0;
  for (const [r, c] of free) {
    for (const [v, p] of [
      [2, 0.9],
      [4, 0.1],
    ] as const) {
      g[r][c] = v;
      total += p * bestReply(g);
      g[r][c] = 0;
    }
  }
  return total / free.length;
}

const policy: ScriptedPolicy<G2048VerifierState> = (s) => {
  let bestIndex = 0;
  let bestValue = -Infinity;
  DIRS.forEach((d, i) => {
    const r = slide(s.board, d);
    if (!r.moved) return;
    const value = expectation(r.grid) + r.gained * 64;
    if (value > bestValue) {
      bestValue = value;
      bestIndex = i;
    }
  });
  return bestIndex;
};
export default policy;
