import { DX, DY } from '../shared/grid-board';

/**
 * Path of Light's maze rules, shared by the game and its afterstate features (decisions.ts): a
 * maze of n×n cells, `open[i]` the passages of cell i (row-major) as bits 1 << d for the sides
 * d = N, E, S, W of games/shared/grid-board's DX/DY; the orb moves one cell through an open side.
 */

export type Dir = 'up' | 'right' | 'down' | 'left';
/** The side of a cell each key moves through. */
export const DIR_INDEX: Record<Dir, number> = { up: 0, right: 1, down: 2, left: 3 };

/** Shortest-path distance from cell `from` to every cell through open sides (−1: unreachable). */
export function mazeDistances(n: number, open: readonly number[], from: number): Int32Array {
  const dist = new Int32Array(n * n).fill(-1);
  dist[from] = 0;
  const queue = [from];
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q];
    const x = i % n;
    const y = (i - x) / n;
    for (let d = 0; d < 4; d++) {
      if (!(open[i] & (1 << d))) continue;
      const j = (y + DY[d]) * n + x + DX[d];
      if (dist[j] >= 0) continue;
      dist[j] = dist[i] + 1;
      queue.push(j);
    }
  }
  return dist;
}
