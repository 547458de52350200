import type { GameDecisions } from '../../gym/actions';
import { blockDropAfterstates } from './afterstates';
import { blockDropPlanner } from './block-drop';

/**
 * Wood Blocks 3D's own action sets (gym/actions/README.md): block drops, 3 offered pieces × 8×8
 * top-left cells (`{ kind: 'drop' }`, block-drop.ts), observed as each drop's outcome and key
 * cost (`{ kind: 'drop', observation: 'afterstates' }`, afterstates.ts).
 */
const decisions: GameDecisions = {
  planners: { drop: (manifest) => blockDropPlanner(manifest) },
  afterstates: { drop: () => blockDropAfterstates() },
};
export default decisions;
