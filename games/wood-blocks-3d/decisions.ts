import type { GameDecisions } from '../../gym/actions';
import { blockDropAfterstates } from './afterstates';
import { blockDropPlanner } from './block-drop';

/**
 * Wood Blocks 3D's own action sets (the contract: gym/actions/README.md).
 *
 * `{ kind: 'drop' }` (block-drop.ts): decision (piece, col, row), d = 64·piece + 8·row + col, drops
 * offered piece 1–3 with its top-left corner on that cell, carried out as one of the preset's
 * drags (the piece from the tray onto the cell that centres it there). A decision the board does
 * not allow (an empty slot, or the piece does not fit there) is one wasted step: the number key
 * of the piece already selected, which the game ignores.
 *
 * `{ kind: 'drop', observation: 'afterstates' }` (afterstates.ts, the game's preset): each of the
 * 192 rows says whether the drop is allowed, the points it scores (cells plus lines × combo, with
 * the game's own `place` and `linePoints` from logic.ts), the lines it clears, and the board it
 * leaves: free cells, walled-in holes, ragged edges, how many of the other offered pieces no
 * longer fit anywhere, whether a 3×3 square still fits, whether it ends the game, whether it
 * empties the tray (a new set is dealt). `afterstates.test.ts` checks on a real WebGL page that
 * every drop takes one step and scores the points predicted, leaves the free cells and blocked
 * pieces predicted, and that refused decisions change nothing.
 */
const decisions: GameDecisions = {
  planners: { drop: (manifest) => blockDropPlanner(manifest) },
  afterstates: { drop: () => blockDropAfterstates() },
};
export default decisions;
