import type { GameDecisions } from '../../gym/actions';
import { expectPresetKeys } from '../shared/preset-keys';
import { slideAfterstates } from './afterstates';
import { DIRS } from './logic';

/**
 * 2048's own action sets (the contract: gym/actions/README.md).
 *
 * `{ kind: 'preset', observation: 'afterstates' }` (afterstates.ts, the game's preset): the actions
 * stay the four keys; each is a one-key decision whose row says what it would do, with the game's
 * own `slide` (logic.ts): the points it scores, whether it changes the board at all (a move into
 * a wall wastes one of the 100 steps), the free cells and mergeable pairs it leaves, whether the
 * biggest tile sits in a corner, and how ordered and smooth the rows and columns are.
 * `afterstates.test.ts` checks the points, the change and the free cells against the real game.
 */
const decisions: GameDecisions = {
  afterstates: { preset: (manifest) => slideAfterstates(expectPresetKeys(manifest, DIRS)) },
};
export default decisions;
