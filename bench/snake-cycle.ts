import type { VerifierState } from '../gym/schema';

/**
 * The benches' Snake policy: follow a Hamiltonian cycle of the 20×20 board (serpentine rows over
 * columns 1–19, back up column 0). A snake on such a cycle does not crash until the game
 * speeds up past one move per step, so a window measures steps rather than resets
 * (bench:env reports reset costs). Snake starts at (10,10) heading right: on the cycle.
 * Self-contained (bench/batched-throughput.ts runs its source inside a page).
 */
export function cyclePolicy(state: VerifierState): number {
  const [x, y] = state.head as [number, number];
  const cols = state.cols as number;
  const rows = state.rows as number;
  const UP = 0,
    RIGHT = 1,
    DOWN = 2,
    LEFT = 3;
  if (x === 0) return y === 0 ? RIGHT : UP;
  if (y % 2 === 0) return x < cols - 1 ? RIGHT : DOWN;
  if (x > 1) return LEFT;
  return y === rows - 1 ? LEFT : DOWN;
}
