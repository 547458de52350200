import type { GameDecisions } from '../../gym/actions';
import { placementAfterstates } from './afterstates';
import { placementPlanner } from './placement';

/**
 * Tetris's own action sets (gym/actions/README.md): placements, 4 rotations × 10 columns then a
 * hard drop (`{ kind: 'placement' }`, placement.ts), observed as the board each leaves behind
 * (`{ kind: 'placement', observation: 'afterstates' }`, afterstates.ts).
 */
const decisions: GameDecisions = {
  planners: { placement: (manifest) => placementPlanner(manifest) },
  afterstates: { placement: () => placementAfterstates() },
};
export default decisions;
