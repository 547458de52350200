import type { GameDecisions } from '../../gym/actions';
import { expectPresetKeys } from '../shared/preset-keys';
import { platformerAfterstates } from './afterstates';

/**
 * The platformer's own action sets (the contract: gym/actions/README.md).
 *
 * `{ kind: 'preset', observation: 'afterstates' }` (afterstates.ts, the game's preset): the course,
 * enemies and coins around the player are rebuilt from the verifier state and run forward for one
 * step of each key (12 frames at 60 Hz, the key held as the runtime holds it) with the game's own
 * physics, through simulate.ts, which the scripted agent's search uses too. Each of the five rows
 * says whether the step loses a life, whether the player could still land safely afterwards
 * (holding still, right or left), how far right it got, what coins, stomps and ?-blocks it
 * scored, whether the player is then in the air, its speeds, the nearest enemy ahead and the next
 * pit. The simulation sees what the verifier sees, so the position is exact on all but a few
 * steps (a frame that falls on the other side of the key's release, a wall contact it lets by);
 * `afterstates.test.ts` checks on a real WebGL page that lost lives, points and being airborne
 * are predicted on every step, and the position on all but 3 % of them.
 */
const decisions: GameDecisions = {
  afterstates: {
    preset: (manifest) => platformerAfterstates(expectPresetKeys(manifest, ['right', 'jump-right', 'jump', 'left', 'noop'] as const), manifest.msPerStep),
  },
};
export default decisions;
