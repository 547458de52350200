import type { GameDecisions } from '../../gym/actions';
import { expectPresetKeys } from '../shared/preset-keys';
import { mazeAfterstates } from './afterstates';

/**
 * Path of Light's own action sets (gym/actions/README.md): its four keys observed as what each
 * does in the maze (`{ kind: 'preset', observation: 'afterstates' }`, afterstates.ts).
 */
const decisions: GameDecisions = {
  afterstates: { preset: (manifest) => mazeAfterstates(expectPresetKeys(manifest, ['up', 'right', 'down', 'left'] as const)) },
};
export default decisions;
