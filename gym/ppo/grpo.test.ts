/**
 * GRPO's group bookkeeping: advantages within a group, and an env whose reset fails at the
 * start of an update (its retry arrives as a reset-only step) left out of its group.
 */
import { describe, expect, it } from 'vitest';
import type { Env } from '../core/env';
import { boxSpace, discreteSpace } from '../core/spaces';
import { SyncVectorEnv } from '../core/sync-vector-env';
import { CpuBackend } from '../nn/cpu-backend';
import { groupAdvantages, grpo } from './grpo';
import { failingReset, pageErrorOnReset } from '../testing/failing-reset';

/** Episodes of `length` steps, reward 1 per step; the seed is the observation. */
function fixedEnv(length: number): Env<Float32Array, number> {
  let t = 0;
  let seed = 0;
  return {
    observationSpace: boxSpace([1]),
    actionSpace: discreteSpace(2),
    reset(o) {
      t = 0;
      seed = o?.seed ?? seed;
      return { observation: Float32Array.of(seed % 7), info: {} };
    },
    step() {
      t++;
      return { observation: Float32Array.of(seed % 7), reward: 1, terminated: t >= length, truncated: false, info: {} };
    },
    close() {},
  };
}

describe('grpo', () => {
  it('standardises returns within each group, over the included episodes only', () => {
    expect(groupAdvantages([1, 3, 5, 5], 2).map((a) => Math.round(a * 1e6) / 1e6)).toEqual([-1, 1, 0, 0]);
    // Episode 0 left out: the group of (0, 1) has one member, so no signal; episode 0 gets 0.
    expect(groupAdvantages([100, 3, 1, 5], 2, [false, true, true, true]).map((a) => Math.round(a * 1e6) / 1e6)).toEqual([0, 0, -1, 1]);
    // Left out, episode 0's return does not move its group's mean.
    const withOutlier = groupAdvantages([100, 1, 3, 5], 4, [false, true, true, true]);
    expect(withOutlier[0]).toBe(0);
    expect(withOutlier.slice(1).reduce((a, b) => a + b, 0)).toBeCloseTo(0, 6);
  });

  it('an env whose reset fails at an update start plays no part in that update, and the run goes on', async () => {
    // Env 0's second seeded reset (the start of update 2; autoresets carry no seed) fails once;
    // its retry comes as a reset-only step.
    let seeded = 0;
    const flaky = () => failingReset(fixedEnv(4), (o) => o?.seed !== undefined && ++seeded === 2);
    const env = new SyncVectorEnv([flaky, () => fixedEnv(4), () => fixedEnv(6), () => fixedEnv(6)], { autoreset: 'same-step', resetFailure: pageErrorOnReset });
    const result = await grpo({
      env,
      obsShape: [1],
      numActions: 2,
      backend: new CpuBackend(),
      config: { seed: 3, groupSize: 2, totalTimesteps: 60, maxEpisodeSteps: 10, minibatchSize: 8 },
    });
    const [first, second, third] = result.metrics;
    expect(first.episodesThisUpdate).toBe(4);
    expect(first.samples).toBe(4 + 4 + 6 + 6);
    // Update 2: env 0 sits out, so its group (envs 0, 1) has no spread, and its rows are not trained on.
    expect(second.episodesThisUpdate).toBe(3);
    expect([first.failedResets, second.failedResets, third.failedResets]).toEqual([0, 1, 0]);
    expect(second.failedResetCause).toBe('PAGE_ERROR: Error: no page');
    expect(second.samples).toBe(4 + 6 + 6);
    expect(second.groupReturnMean).toBeCloseTo((4 + 6 + 6) / 3, 6);
    // Its failed reset counts as no episode: the window holds only real episodes of 4 or 6 steps.
    expect(second.episodesWindow).toBe(7);
    expect(third.episodesThisUpdate).toBe(4);
    expect(result.metrics.every((m) => m.episodeLengthMean === null || m.episodeLengthMean >= 4)).toBe(true);
  });
});
