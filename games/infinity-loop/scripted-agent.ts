import type { ScriptedPolicy } from '../../gym/agents';
import type { InfinityLoopVerifierState } from '../../verifiers/infinity-loop';
import { hasLooseEnd, solveTurns } from '../shared/turn-tiles';

/**
 * Solves the board with a row-major backtracking search (each tile's openings must agree
 * with the tiles above and to the left, never point off the board or into an empty cell),
 * trying the cheapest rotations first, then taps the first tile not yet in its solved
 * orientation. The search is deterministic, so successive steps aim at the same solution.
 */
export function solveRotations(cols: number, rows: number, tiles: readonly number[], maxNodes = 200_000): number[] | null {
  return solveTurns(cols, rows, tiles, { pruneAtCrosses: true, maxNodes });
}

const policy: ScriptedPolicy<InfinityLoopVerifierState> = (s) => {
  const sol = solveRotations(s.cols, s.rows, s.tiles);
  if (sol) {
    for (let i = 0; i < s.tiles.length; i++) if (s.tiles[i] !== sol[i]) return i;
  }
  // No solution found in budget: turn the first tile with an unmatched opening.
  for (let i = 0; i < s.tiles.length; i++) if (hasLooseEnd(s.tiles, s.cols, s.rows, i)) return i;
  return 0;
};
export default policy;
