/**
 * gym/core's wrappers and SyncVectorEnv on small synchronous envs, against Gymnasium's
 * semantics worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { CartPole, CartPoleVectorEnv } from '../../cartpole';
import type { Env } from '../env';
import { boxSpace, discreteSpace } from '../spaces';
import { SyncVectorEnv } from '../sync-vector-env';
import { RecordEpisodeStatistics, VectorRecordEpisodeStatistics } from './episode-statistics';
import { FrameStackObservation, VectorFrameStackObservation } from './frame-stack';
import { NormalizeObservation, NormalizeReward, VectorNormalizeObservation } from './normalize';
import { ShapeReward, VectorShapeReward } from './reward-shaping';
import { RunningMeanStd } from './running-mean-std';
import { TimeLimit } from './time-limit';
import { failingReset, pageErrorOnReset } from '../../testing/failing-reset';

/** Observation [t], reward t, terminated after `length` steps. */
function counter(length: number): Env<Float32Array, number> {
  let t = 0;
  return {
    observationSpace: boxSpace([1]),
    actionSpace: discreteSpace(2),
    reset: () => {
      t = 0;
      return { observation: Float32Array.of(0), info: {} };
    },
    step: () => {
      t++;
      return { observation: Float32Array.of(t), reward: t, terminated: t >= length, truncated: false, info: {} };
    },
    close() {},
  };
}

describe('RunningMeanStd', () => {
  it('merges batches like one pass over all the data (population variance, count from 1e-4)', () => {
    const rms = new RunningMeanStd(1);
    rms.update([1, 2, 3], 3);
    rms.update([4, 5], 2);
    expect(rms.count).toBeCloseTo(5.0001, 10);
    // The 1e-4 prior of mean 0, var 1 pulls the figures a hair from 3 and 2.
    expect(rms.mean[0]).toBeCloseTo((1 + 2 + 3 + 4 + 5) / 5.0001, 6);
    expect(rms.var[0]).toBeCloseTo(2, 3);
  });
});

describe('wrappers', () => {
  it('ShapeReward adds perStep to every step and terminal on termination only', async () => {
    const env = new ShapeReward(counter(2), { perStep: -0.5, terminal: 10 });
    await env.reset();
    expect((await env.step(0)).reward).toBe(0.5);
    expect((await env.step(0)).reward).toBe(2 - 0.5 + 10);
  });

  it('TimeLimit truncates after maxEpisodeSteps; RecordEpisodeStatistics reports return and length', async () => {
    const env = new RecordEpisodeStatistics(new TimeLimit(counter(100), 3));
    await env.reset();
    await env.step(0);
    expect((await env.step(0)).info.episodeStatistics).toBeUndefined();
    const last = await env.step(0);
    expect(last.truncated).toBe(true);
    expect(last.info.episodeStatistics).toEqual({ return: 1 + 2 + 3, length: 3 });
  });

  it('FrameStackObservation stacks the last k observations, oldest first, refilled at reset', async () => {
    const env = new FrameStackObservation(counter(10), 3);
    expect(env.observationSpace).toMatchObject({ type: 'Box', shape: [3, 1] });
    expect(Array.from((await env.reset()).observation)).toEqual([0, 0, 0]);
    await env.step(0);
    expect(Array.from((await env.step(0)).observation)).toEqual([0, 1, 2]);
    expect(Array.from((await env.step(0)).observation)).toEqual([1, 2, 3]);
    expect(Array.from((await env.reset()).observation)).toEqual([0, 0, 0]);
  });

  it('NormalizeObservation: (x − mean) / √(var + ε) with the statistics updated by x first; frozen when asked', async () => {
    const env = new NormalizeObservation(counter(10));
    const first = (await env.reset()).observation[0];
    // After one sample x = 0: mean 0, var (1e-4·1)/(1e-4 + 1) ≈ 1e-4.
    expect(first).toBe(0);
    const x1 = (await env.step(0)).observation[0];
    const rms = new RunningMeanStd(1);
    rms.update([0], 1);
    rms.update([1], 1);
    expect(x1).toBeCloseTo((1 - rms.mean[0]) / Math.sqrt(rms.var[0] + 1e-8), 5);
    env.updateRunningMean = false;
    const count = env.rms.count;
    await env.step(0);
    expect(env.rms.count).toBe(count);
  });

  it("NormalizeReward divides by the running std of the discounted return G ← γ·G·(1 − terminated) + r (Gymnasium's update)", async () => {
    const env = new NormalizeReward(counter(2), { gamma: 0.5 });
    await env.reset();
    const rms = new RunningMeanStd(1);
    rms.update([1], 1); // G = 1
    expect((await env.step(0)).reward).toBeCloseTo(1 / Math.sqrt(rms.var[0] + 1e-8), 6);
    rms.update([2], 1); // the terminating step: G = 1·γ·0 + 2
    expect((await env.step(0)).reward).toBeCloseTo(2 / Math.sqrt(rms.var[0] + 1e-8), 6);
    await env.reset();
    rms.update([2 * 0.5 + 1], 1); // G carries over the reset, as in Gymnasium
    expect((await env.step(0)).reward).toBeCloseTo(1 / Math.sqrt(rms.var[0] + 1e-8), 6);
  });
});

describe('vector wrappers and SyncVectorEnv', () => {
  it('a reset failure the options tolerate is reported as truncated with its cause and retried on the next step', async () => {
    let failures = 1;
    const flaky = () => failingReset(counter(2), () => failures-- > 0);
    const env = new SyncVectorEnv([() => counter(2), flaky], { resetFailure: pageErrorOnReset });
    const r = await env.reset();
    expect(r.infos[1].resetFailure?.code).toBe('PAGE_ERROR');
    const s = await env.step([0, 0]);
    expect(s.infos[1]).toMatchObject({ autoreset: true });
    expect(s.rewards[1]).toBe(0);
    await expect(new SyncVectorEnv([flaky]).reset()).resolves.toBeDefined(); // failures is spent: resets again
  });

  it('VectorRecordEpisodeStatistics skips next-step autoreset steps; VectorShapeReward leaves them at 0', async () => {
    const env = new VectorShapeReward(new VectorRecordEpisodeStatistics(new SyncVectorEnv([() => counter(2), () => counter(3)])), {
      perStep: -1,
    });
    await env.reset();
    await env.step([0, 0]);
    const end0 = await env.step([0, 0]);
    expect(end0.infos[0].episodeStatistics).toEqual({ return: 3, length: 2 });
    const reset0 = await env.step([0, 0]);
    expect(reset0.infos[0].autoreset).toBe(true);
    expect(reset0.rewards[0]).toBe(0);
    expect(reset0.infos[1].episodeStatistics).toEqual({ return: 6, length: 3 });
    expect(reset0.rewards[1]).toBe(3 - 1);
  });

  it('VectorFrameStackObservation and VectorNormalizeObservation handle same-step final observations', async () => {
    const env = new VectorFrameStackObservation(new SyncVectorEnv([() => counter(2)], { autoreset: 'same-step' }), 2);
    expect(Array.from((await env.reset()).observations[0])).toEqual([0, 0]);
    await env.step([0]);
    const end = await env.step([0]);
    expect(Array.from(end.infos[0].finalObservation!)).toEqual([1, 2]);
    expect(Array.from(end.observations[0])).toEqual([0, 0]);

    const norm = new VectorNormalizeObservation(new CartPoleVectorEnv(4, { autoreset: 'same-step' }));
    await norm.reset({ seed: 1 });
    for (let i = 0; i < 50; i++) await norm.step([1, 1, 1, 1]);
    expect(norm.rms.count).toBeCloseTo(51 * 4 + 1e-4, 6);
  });

  it('a wrapper stack snapshots and restores CartPole exactly', async () => {
    const make = () => new NormalizeObservation(new FrameStackObservation(new CartPole(3), 2));
    const a = make();
    await a.reset({ seed: 9 });
    for (let i = 0; i < 5; i++) await a.step(i % 2);
    const b = make();
    b.setState(JSON.parse(JSON.stringify(a.getState())));
    for (let i = 0; i < 5; i++) expect(await b.step(1)).toEqual(await a.step(1));
  });
});
