import type { GameDecisions } from '../../gym/actions';
import { expectPresetKeys } from '../shared/preset-keys';
import { mazeAfterstates } from './afterstates';

/**
 * Path of Light's own action sets (the contract: gym/actions/README.md).
 *
 * `{ kind: 'preset', observation: 'afterstates' }` (afterstates.ts, the game's preset): each of the
 * four keys gets what it does in the maze the player sees (`open`, the passages; distances from
 * the game's own logic.ts): whether it bumps a wall (free, and nothing changes), lights an unlit
 * cell (a point), reaches the exit (the bonus, and the next maze), whether it gets closer to the
 * exit along the maze's shortest path, the exit distance and the nearest unlit cell's distance
 * after it (over the maze side), the energy slack after it (energy left minus the distance still
 * to go), and whether the exit is then out of reach. `afterstates.test.ts` checks bumps,
 * lighting, exits and stranding against the real game.
 */
const decisions: GameDecisions = {
  afterstates: { preset: (manifest) => mazeAfterstates(expectPresetKeys(manifest, ['up', 'right', 'down', 'left'] as const)) },
};
export default decisions;
