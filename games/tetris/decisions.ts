import type { GameDecisions } from '../../gym/actions';
import { placementAfterstates } from './afterstates';
import { placementPlanner } from './placement';

/**
 * Tetris's own action sets (the contract: gym/actions/README.md).
 *
 * `{ kind: 'placement' }` (placement.ts): decision d = 10·r + c turns the piece to rotation r
 * (0..3, clockwise from spawn; none for the O piece), moves it until the leftmost of
 * `info.state.piece.cells` is in column c (or the nearest column it fits in), and hard-drops it.
 * Closed-loop: each key is chosen from the verifier state after the last one, so wall kicks and
 * gravity cannot throw it off, and the same state and decision always give the same keys. A
 * rotation or move the board blocks (the state does not change) ends that phase and the piece is
 * dropped where it is; the decision ends when a new piece spawns (`state.pieces` changed) or the
 * game is over. It needs preset actions named `left`, `right`, `rotate` and `hard drop`.
 *
 * `{ kind: 'placement', observation: 'afterstates' }` (afterstates.ts, Tetris's preset): instead of
 * the verifier's 227 features the policy reads, for each of the 40 decisions, the board it would
 * leave: lines cleared, landing height, aggregate and maximum height, holes, bumpiness, wells, and
 * whether the piece locks above the well, simulated with the game's own rules (logic.ts) by
 * following the controller's keys without gravity between them. `afterstates.test.ts` checks on a
 * real page that every decision's prediction is the board the game really left. The observation
 * is a [40, 8] Box scored by the scorer network (gym/nn): one MLP per decision's row, the
 * representation the scripted agent's heuristic uses (a score per afterstate).
 */
const decisions: GameDecisions = {
  planners: { placement: (manifest) => placementPlanner(manifest) },
  afterstates: { placement: () => placementAfterstates() },
};
export default decisions;
