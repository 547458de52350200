/**
 * Value pretraining trains only the critic on λ = 1 returns of the fixed initial policy,
 * stops at the iteration cap or once the thresholds hold, and then hands over to PPO.
 */
import { describe, expect, it } from 'vitest';
import { cartPoleTask } from '../cartpole';
import { ActorCritic, type NetworkSpec } from '../nn/actor-critic';
import { CpuBackend } from '../nn/cpu-backend';
import type { PpoConfigInput } from './config';
import { train } from './train';

const base: PpoConfigInput = { seed: 2, numSteps: 64, totalTimesteps: 2 * 256, learningRate: 1e-3 };
const spec: NetworkSpec = { kind: 'mlp', obsSize: 4, numActions: 2, hidden: [64, 64], activation: 'tanh' };

describe('value pretraining', { timeout: 60_000 }, () => {
  it('keeps the policy fixed, improves the critic, and stops at the iteration cap', async () => {
    const result = await train({
      ...cartPoleTask(4, { autoreset: 'same-step' }),
      backend: new CpuBackend(),
      config: { ...base, valuePretrain: { enabled: true, maxIterations: 12, minExplainedVariance: 0.999 } },
      stopWhen: (m) => m.phase === 'value-pretrain' && m.pretrainIteration === 12,
    });
    const pre = result.metrics.filter((m) => m.phase === 'value-pretrain');
    expect(pre.map((m) => m.pretrainIteration)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(pre.every((m) => m.policyLoss === null && m.valueLoss !== null)).toBe(true);
    expect(pre[11].globalStep).toBe(12 * 256);
    // Per-rollout numbers are noisy; compare the first and last three iterations.
    const avg = (ms: typeof pre, key: 'valueLoss' | 'explainedVariance') => ms.reduce((s, m) => s + (m[key] as number), 0) / ms.length;
    expect(avg(pre.slice(9), 'valueLoss')).toBeLessThan(avg(pre.slice(0, 3), 'valueLoss'));
    expect(avg(pre.slice(9), 'explainedVariance')).toBeGreaterThan(avg(pre.slice(0, 3), 'explainedVariance'));

    // The actor's parameters are exactly those of a freshly initialised network with the same seed.
    const fresh = new ActorCritic(new CpuBackend(), spec, 2);
    const initial = await fresh.backend.read(fresh.store.params);
    const after = (await result.checkpoint()).blobs.get('params') as Float32Array;
    for (const e of fresh.store.entries) {
      const same = Array.from(after.subarray(e.offset, e.offset + e.size)).every((v, i) => v === initial[e.offset + i]);
      expect(same, e.name).toBe(e.name.startsWith('actor.'));
    }
  });

  it('stops as soon as the thresholds hold, resets Adam, then runs PPO', async () => {
    const result = await train({
      ...cartPoleTask(4, { autoreset: 'same-step' }),
      backend: new CpuBackend(),
      config: { ...base, valuePretrain: { enabled: true, maxIterations: 50, minExplainedVariance: -1e9, maxValueLoss: 1e9 } },
    });
    expect(result.metrics.map((m) => m.phase)).toEqual(['value-pretrain', 'ppo', 'ppo']);
    const ck = await result.checkpoint();
    expect(ck.header.progress?.valuePretrainDone).toBe(true);
    // 2 PPO updates × 4 minibatches × 4 epochs after the reset.
    expect(ck.header.optimizer?.step).toBe(2 * 16);
  });
});
