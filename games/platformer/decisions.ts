import type { GameDecisions } from '../../gym/actions';
import { expectPresetKeys } from '../shared/preset-keys';
import { platformerAfterstates } from './afterstates';

/**
 * The platformer's own action sets (gym/actions/README.md): its five keys observed as what each
 * does over one step of the game's physics (`{ kind: 'preset', observation: 'afterstates' }`,
 * afterstates.ts).
 */
const decisions: GameDecisions = {
  afterstates: {
    preset: (manifest) => platformerAfterstates(expectPresetKeys(manifest, ['right', 'jump-right', 'jump', 'left', 'noop'] as const), manifest.msPerStep),
  },
};
export default decisions;
