/**
 * The gym's rate that train ÷ gym divides by must be measured on the work training does: under
 * a run that masks actions, the probe's random draws stay inside the env's action mask.
 */
import { describe, expect, it } from 'vitest';
import { boxSpace, discreteSpace, type Env, SyncVectorEnv } from '../gym/core';
import { gymRate } from './learn-run';

/** Five actions of which only `t mod 5` is allowed at step t; any other throws, as a refusal would show. */
function oneAllowed(): Env<Float32Array, number, { actionMask: number[] }, { actionMask: number[] }> {
  let t = 0;
  const mask = () => [0, 1, 2, 3, 4].map((a) => (a === t % 5 ? 1 : 0));
  return {
    observationSpace: boxSpace([1]),
    actionSpace: discreteSpace(5),
    reset() {
      t = 0;
      return { observation: Float32Array.of(0), info: { actionMask: mask() } };
    },
    step(a) {
      if (!mask()[a]) throw new Error(`step ${t}: action ${a} is masked`);
      t++;
      return { observation: Float32Array.of(t), reward: 0, terminated: false, truncated: t >= 7, info: { actionMask: mask() } };
    },
    close() {},
  };
}

describe('gymRate', () => {
  const env = () => new SyncVectorEnv([oneAllowed, oneAllowed, oneAllowed], { autoreset: 'same-step' });

  it('draws inside the action mask when the run masks, through autoresets', async () => {
    const r = await gymRate(env(), 5, 20, { masked: true });
    expect(r.stepsPerSec).toBeGreaterThan(0);
    expect(r.decisionsPerSec).toBe(r.stepsPerSec);
  });

  it('draws among every action when the run does not mask', async () => {
    await expect(gymRate(env(), 5, 20, { masked: false })).rejects.toThrow(/is masked/);
  });
});
