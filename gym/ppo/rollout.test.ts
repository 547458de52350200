/**
 * Rollout collection on a scripted env with known episode ends: validity masks for
 * next-step autoreset, V(final obs) bootstraps on truncation in both autoreset modes,
 * raw episode returns, and reward shaping.
 */
import { describe, expect, it } from 'vitest';
import { ActorCritic } from '../nn/actor-critic';
import { CpuBackend } from '../nn/cpu-backend';
import { ActingSession } from './acting';
import { parsePpoConfig } from './config';
import { ObsEncoder } from './obs-encoder';
import { shapeReward } from './reward-shaping';
import { RolloutCollector } from './rollout';
import type { AutoresetMode, VectorEnvLike, VectorStepResult } from './vector-env';

/**
 * Env e's episodes last 3 + e steps; env 0's end by truncation, env 1's by termination.
 * Observation: [step within episode / 10, env index]; reward 1 per step.
 */
class ScriptedEnv implements VectorEnvLike {
  readonly num = 2;
  private t = [0, 0];
  private pending = [false, false];
  constructor(readonly autoresetMode: AutoresetMode) {}
  private obs(e: number) {
    return Float32Array.of(this.t[e] / 10, e);
  }
  reset() {
    this.t = [0, 0];
    this.pending = [false, false];
    return { obs: [this.obs(0), this.obs(1)] };
  }
  step(): VectorStepResult {
    const res = { obs: [] as Float32Array[], rewards: [0, 0], terminated: [false, false], truncated: [false, false], finalObs: [null, null] as (Float32Array | null)[] };
    for (let e = 0; e < 2; e++) {
      if (this.pending[e]) {
        this.pending[e] = false;
        this.t[e] = 0;
        res.obs.push(this.obs(e));
        continue;
      }
      this.t[e]++;
      res.rewards[e] = 1;
      const done = this.t[e] >= 3 + e;
      if (done) (e === 0 ? res.truncated : res.terminated)[e] = true;
      if (done && this.autoresetMode === 'same-step') {
        res.finalObs[e] = this.obs(e);
        this.t[e] = 0;
      } else if (done) this.pending[e] = true;
      res.obs.push(this.obs(e));
    }
    return { obs: res.obs, rewards: res.rewards, terminated: res.terminated, truncated: res.truncated, info: { finalObs: res.finalObs } };
  }
}

async function collect(mode: AutoresetMode, shaping = parsePpoConfig().rewardShaping) {
  const cpu = new CpuBackend();
  const net = new ActorCritic(cpu, { kind: 'mlp', obsSize: 2, numActions: 2, hidden: [4], activation: 'tanh' }, 1);
  const acting = new ActingSession(net, 2, 9);
  const collector = new RolloutCollector(new ScriptedEnv(mode), new ObsEncoder([2], 1, 'hwc'), acting, shaping);
  await collector.reset(0);
  const rollout = await collector.collect(10);
  // V of env 0's final observation [0.3, 0], computed directly.
  const vFinal = (await acting.values(Float32Array.of(0.3, 0, 0.3, 0)))[0];
  return { rollout, vFinal };
}

describe('RolloutCollector', () => {
  it('same-step autoreset: every step is valid; truncations bootstrap from V(info.finalObs)', async () => {
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

  it('reward shaping changes what the learner sees, not the logged episode return', async () => {
    const shaping = { enabled: true, stepPenalty: 0.1, terminationBonus: -2, outcomeBonus: 0 };
    const { rollout: r } = await collect('same-step', shaping);
    expect(r.rewards[0]).toBeCloseTo(0.9, 6); // 1 − 0.1
    expect(r.rewards[3 * 2 + 1]).toBeCloseTo(1 - 0.1 - 2, 6); // env 1 terminates at t = 3
    expect(r.rewards[2 * 2]).toBeCloseTo(0.9, 6); // truncation gets no termination bonus
    expect(r.episodes.map((e) => e.return).sort()).toEqual([3, 3, 3, 4, 4]);
    expect(shapeReward(1, false, true, 1, { enabled: true, stepPenalty: 0, terminationBonus: 0, outcomeBonus: 5 })).toBe(6);
    expect(shapeReward(1, true, false, -1, { enabled: false, stepPenalty: 1, terminationBonus: 1, outcomeBonus: 5 })).toBe(1);
  });
});
