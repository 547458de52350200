import type { GameDecisions } from '../../gym/actions';
import { expectPresetKeys } from '../shared/preset-keys';
import { snakeAfterstates } from './afterstates';

/**
 * Snake's own action sets (the contract: gym/actions/README.md).
 *
 * `{ kind: 'preset', observation: 'afterstates' }` (afterstates.ts, the game's preset): each of the
 * five keys (four headings and a wait) gets the next tick's outcome, by the game's own rules
 * (logic.ts): whether the head hits a wall or the body (the tail excepted, it moves on), whether
 * it eats, whether it gets closer to the food, how much free area the new head can reach (a flood
 * fill capped at twice the snake's length, the scripted agent's test for dead ends) and the food
 * distance. A key that is the heading or its reverse keeps the heading, as in the game.
 * `afterstates.test.ts` checks death, eating and approach against the real game on every
 * single-tick step.
 */
const decisions: GameDecisions = {
  afterstates: { preset: (manifest) => snakeAfterstates(expectPresetKeys(manifest, ['up', 'right', 'down', 'left', 'noop'] as const)) },
};
export default decisions;
