import type { GameDecisions } from '../../gym/actions';
import { expectPresetKeys } from '../shared/preset-keys';
import { snakeAfterstates } from './afterstates';

/**
 * Snake's own action sets (gym/actions/README.md): its five keys observed as what each does on
 * the next tick (`{ kind: 'preset', observation: 'afterstates' }`, afterstates.ts).
 */
const decisions: GameDecisions = {
  afterstates: { preset: (manifest) => snakeAfterstates(expectPresetKeys(manifest, ['up', 'right', 'down', 'left', 'noop'] as const)) },
};
export default decisions;
