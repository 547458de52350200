import type { GameDecisions } from '../../gym/actions';
import { expectPresetKeys } from '../shared/preset-keys';
import { slideAfterstates } from './afterstates';
import { DIRS } from './logic';

/**
 * 2048's own action sets (gym/actions/README.md): its four moves observed as what each slide
 * leaves behind (`{ kind: 'preset', observation: 'afterstates' }`, afterstates.ts).
 */
const decisions: GameDecisions = {
  afterstates: { preset: (manifest) => slideAfterstates(expectPresetKeys(manifest, DIRS)) },
};
export default decisions;
