/**
 * Rollout collection on a scripted env with known episode ends: validity masks for
 * next-step autoreset, V(final obs) bootstraps on truncation in both autoreset modes,
 * raw episode returns, and reward shaping.
 */
import { describe, expect, it } from 'vitest';
import { boxSpace, discreteSpace } from '../core/spaces';
import { SyncVectorEnv } from '../core/sync-vector-env';
import type { Env } from '../core/env';
import type { AutoresetMode } from '../core/vector-env';
import { shapeReward } from '../core/wrappers/reward-shaping';
import { ActorCritic } from '../nn/actor-critic';
import { CpuBackend } from '../nn/cpu-backend';
import { ActingSession } from './acting';
import { parsePpoConfig, type PpoConfigInput } from './config';
import { ObsEncoder } from './obs-encoder';
import { RolloutCollector } from './rollout';
import { failingReset, pageErrorOnReset } from '../testing/failing-reset';

/**
 * Env e's episodes last 3 + e steps; env 0's end by truncation, env 1's by termination.
 * Observation: [step within episode / 10, env index]; reward 1 per step.
 */
function scriptedEnv(e: number): Env<Float32Array, number> {
  let t = 0;
  const obs = () => Float32Array.of(t / 10, e);
  return {
    observationSpace: boxSpace([2]),
    actionSpace: discreteSpace(2),
    reset() {
      t = 0;
      return { observation: obs(), info: {} };
    },
    step() {
      t++;
      const done = t >= 3 + e;
      return { observation: obs(), reward: 1, terminated: done && e === 1, truncated: done && e === 0, info: {} };
    },
    close() {},
  };
}

async function collect(mode: AutoresetMode, config: PpoConfigInput = {}) {
  const cpu = new CpuBackend();
  const net = new ActorCritic(cpu, { kind: 'mlp', obsSize: 2, numActions: 2, hidden: [4], activation: 'tanh' }, 1);
  const acting = new ActingSession(net, 2, 9);
  const env = new SyncVectorEnv(
    [0, 1].map((e) => () => scriptedEnv(e)),
    { autoreset: mode },
  );
  const collector = new RolloutCollector(env, new ObsEncoder([2], 1, 'hwc'), acting, parsePpoConfig(config));
  await collector.reset(0);
  const rollout = await collector.collect(10);
  // V of env 0's final observation [0.3, 0], computed directly.
  const vFinal = (await acting.values(Float32Array.of(0.3, 0, 0.3, 0)))[0];
  return { rollout, vFinal, collector };
}

describe('RolloutCollector', () => {
  it('same-step autoreset: every step is valid; truncations bootstrap from V(infos[i].finalObservation)', async () => {
    const { rollout: r, vFinal } = await collect('same-step');
    expect(Array.from(r.valid)).toEqual(new Array(20).fill(1));
    // env 0 (3-step episodes) is truncated at t = 2, 5, 8; env 1 (4 steps) terminates at t = 3, 7.
    const truncAt = [2, 5, 8].map((t) => t * 2);
    const termAt = [3, 7].map((t) => t * 2 + 1);
    r.truncated.forEach((v, i) => expect(v, `truncated ${i}`).toBe(truncAt.includes(i) ? 1 : 0));
    r.terminated.forEach((v, i) => expect(v, `terminated ${i}`).toBe(termAt.includes(i) ? 1 : 0));
    for (const i of truncAt) expect(r.bootstrapValues[i]).toBeCloseTo(vFinal, 6);
    expect(r.episodes.map((e) => e.length).sort()).toEqual([3, 3, 3, 4, 4]);
  });

  it('next-step autoreset: reset transitions are invalid; the truncated step bootstraps from the next obs', async () => {
    const { rollout: r, vFinal } = await collect('next-step');
    // env 0: steps 0-2 episode (truncated at 2), 3 reset, 4-6 episode (truncated at 6), 7 reset, 8-9 running.
    const valid0 = Array.from({ length: 10 }, (_, t) => r.valid[t * 2]);
    expect(valid0).toEqual([1, 1, 1, 0, 1, 1, 1, 0, 1, 1]);
    // env 1: 0-3 episode (terminated at 3), 4 reset, 5-8 episode (terminated at 8), 9 reset.
    const valid1 = Array.from({ length: 10 }, (_, t) => r.valid[t * 2 + 1]);
    expect(valid1).toEqual([1, 1, 1, 1, 0, 1, 1, 1, 1, 0]);
    expect(r.truncated[2 * 2]).toBe(1);
    expect(r.bootstrapValues[2 * 2]).toBeCloseTo(vFinal, 6);
    expect(r.bootstrapValues[6 * 2]).toBeCloseTo(vFinal, 6);
    expect(r.bootstrapValues[3 * 2 + 1]).toBe(0); // terminated: no bootstrap
    expect(r.episodes.map((e) => e.return).sort()).toEqual([3, 3, 4, 4]);
    // Reset transitions carry no reward.
    expect(r.rewards[3 * 2]).toBe(0);
  });

  it('same-step autoreset: a reset that fails and is retried gives invalid steps, not a truncation without a final observation', async () => {
    // Env 0's reset fails twice after its first episode: the episode's last step (t = 2) still ends it
    // (with its final observation); the retry that fails again (t = 3, reported truncated) and the one
    // that succeeds (t = 4) are no transitions.
    let failures = 0;
    let resets = 0;
    const flaky = () =>
      failingReset(scriptedEnv(0), () => {
        if (resets++ === 1) failures = 2;
        return failures-- > 0;
      });
    const cpu = new CpuBackend();
    const net = new ActorCritic(cpu, { kind: 'mlp', obsSize: 2, numActions: 2, hidden: [4], activation: 'tanh' }, 1);
    const env = new SyncVectorEnv([flaky, () => scriptedEnv(1)], { autoreset: 'same-step', resetFailure: pageErrorOnReset });
    const collector = new RolloutCollector(env, new ObsEncoder([2], 1, 'hwc'), new ActingSession(net, 2, 9), parsePpoConfig({}));
    await collector.reset(0);
    const r = await collector.collect(10);
    expect(Array.from({ length: 10 }, (_, t) => r.valid[t * 2])).toEqual([1, 1, 1, 0, 0, 1, 1, 1, 1, 1]);
    expect(r.truncated[2 * 2]).toBe(1);
    expect(r.rewards[3 * 2]).toBe(0);
    // Env 0: the 3-step episode before the failure, one after it (t = 5–7), then t = 8–9 running.
    expect(r.episodes.filter((e) => e.length === 3)).toHaveLength(2);
    // The lost steps are counted with their cause, for the update's metrics.
    expect(r.failedResets).toEqual({ steps: 2, lastCause: 'PAGE_ERROR: Error: no page' });
  });

  it('reward shaping changes what the learner sees, not the logged episode return', async () => {
    // Reward normalisation (on by default) off, to see the shaped rewards themselves.
    const { rollout: r } = await collect('same-step', { rewardShaping: { perStep: -0.1, terminal: -2 }, normalizeReward: { enabled: false } });
    expect(r.rewards[0]).toBeCloseTo(0.9, 6); // 1 − 0.1
    expect(r.rewards[3 * 2 + 1]).toBeCloseTo(1 - 0.1 - 2, 6); // env 1 terminates at t = 3
    expect(r.rewards[2 * 2]).toBeCloseTo(0.9, 6); // truncation gets no termination bonus
    expect(r.episodes.map((e) => e.return).sort()).toEqual([3, 3, 3, 4, 4]);
    expect(shapeReward(1, true, { perStep: -0.5, terminal: 5 })).toBe(5.5);
    expect(shapeReward(1, false, { perStep: -0.5, terminal: 5 })).toBe(0.5);
  });

  it('reward normalisation scales what the learner sees by the running return std; episode returns stay raw', async () => {
    const { rollout: r, collector } = await collect('next-step', { normalizeReward: { enabled: true } });
    const state = collector.wrappers.getNormalization().reward!;
    // The last update of the statistics scaled the last step's rewards (env 0 steps at t = 9, env 1 autoresets).
    expect(r.valid[9 * 2]).toBe(1);
    expect(r.rewards[9 * 2]).toBeCloseTo(1 / Math.sqrt(state.rms.var[0] + 1e-8), 4);
    expect(r.rewards[9 * 2]).not.toBeCloseTo(1, 2);
    expect(r.rewards[9 * 2 + 1]).toBe(0); // an autoreset step carries no reward
    expect(state.rms.count).toBeCloseTo(10 * 2 + 1e-4, 6); // one update per step, of both envs
    expect(r.episodes.map((e) => e.return).sort()).toEqual([3, 3, 4, 4]);
  });

  for (const mode of ['same-step', 'next-step'] as const) {
    it(`${mode} autoreset: actions are drawn under each observation's action mask and stored with it`, async () => {
      const cpu = new CpuBackend();
      const net = new ActorCritic(cpu, { kind: 'mlp', obsSize: 2, numActions: 4, hidden: [4], activation: 'tanh' }, 1);
      const acting = new ActingSession(net, 2, 9);
      const env = new SyncVectorEnv(
        [0, 1].map((e) => () => maskedEnv(e)),
        { autoreset: mode },
      );
      const collector = new RolloutCollector(env, new ObsEncoder([2], 1, 'hwc'), acting, parsePpoConfig({}), true);
      await collector.reset(0);
      expect(collector.masked).toBe(true);
      const r = await collector.collect(40);
      expect(r.masks).not.toBeNull();
      let drawn = 0;
      for (let i = 0; i < r.valid.length; i++) {
        if (!r.valid[i]) continue;
        const t = Math.round(r.obs[i * 2] * 10);
        const e = r.obs[i * 2 + 1];
        expect(Array.from(r.masks!.subarray(i * 4, i * 4 + 4)), `row ${i}`).toEqual(maskAt(t, e));
        expect(maskAt(t, e)[r.actions[i]], `row ${i} drew masked action ${r.actions[i]}`).toBe(1);
        drawn++;
      }
      expect(drawn).toBeGreaterThan(60);
      // Without masking the same policy draws masked actions (the env throws on them).
      const unmasked = new RolloutCollector(
        new SyncVectorEnv(
          [0, 1].map((e) => () => maskedEnv(e)),
          { autoreset: mode },
        ),
        new ObsEncoder([2], 1, 'hwc'),
        new ActingSession(net, 2, 9),
        parsePpoConfig({}),
        false,
      );
      await unmasked.reset(0);
      await expect(unmasked.collect(40)).rejects.toThrow(/masked action/);
    });
  }
});

/** Env e: 4 actions, of which two are allowed at step t ((t + e) mod 4 and the next); taking another throws. */
function maskAt(t: number, e: number): number[] {
  return [0, 1, 2, 3].map((a) => (a === (t + e) % 4 || a === (t + e + 1) % 4 ? 1 : 0));
}

function maskedEnv(e: number): Env<Float32Array, number, { actionMask: number[] }, { actionMask: number[] }> {
  let t = 0;
  const obs = () => Float32Array.of(t / 10, e);
  return {
    observationSpace: boxSpace([2]),
    actionSpace: discreteSpace(4),
    reset() {
      t = 0;
      return { observation: obs(), info: { actionMask: maskAt(t, e) } };
    },
    step(a) {
      if (!maskAt(t, e)[a]) throw new Error(`env ${e} step ${t}: masked action ${a}`);
      t++;
      const done = t >= 5 + e;
      return { observation: obs(), reward: 1, terminated: done && e === 1, truncated: done && e === 0, info: { actionMask: maskAt(t, e) } };
    },
    close() {},
  };
}
