import type { ScriptedPolicy } from '../../gym/agents';
import type { MoleBopState } from './verifier';

/** Bops the first mole that is fully up; otherwise waits (clicking a rising mole does nothing). */
const WAIT = 9;
const policy: ScriptedPolicy<MoleBopState> = (s) => {
  const ready = s.holes.indexOf(2);
  return ready >= 0 ? ready : WAIT;
};
export default policy;
