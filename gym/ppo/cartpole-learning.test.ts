/**
 * PPO must learn CartPole: with seed 1 on the CPU backend, the mean return of the last 20
 * episodes must reach 195 (CartPole-v0's "solved" bar; a random policy scores ≈ 22) within
 * 40,960 env steps, a budget with room to spare over what seeds 1–5 needed (bench/README.md,
 * Design measurements).
 */
import { describe, expect, it } from 'vitest';
import { CartPole, cartPoleTask } from '../cartpole';
import { CpuBackend } from '../nn/cpu-backend';
import { grpo, groupAdvantages } from './grpo';
import { train } from './train';

const THRESHOLD = 195;
const BUDGET_STEPS = 40_960;

describe('learning CartPole', { timeout: 120_000 }, () => {
  it(`PPO reaches a 20-episode mean return ≥ ${THRESHOLD} within ${BUDGET_STEPS} steps`, async () => {
    const result = await train({
      ...cartPoleTask(8, { autoreset: 'same-step' }),
      backend: new CpuBackend(),
      // The settings the budget was measured with (before the defaults moved to no annealing and reward normalisation).
      config: {
        seed: 1,
        totalTimesteps: BUDGET_STEPS,
        numSteps: 64,
        learningRate: 1e-3,
        annealLr: true,
        normalizeReward: { enabled: false },
        episodeWindow: 20,
      },
      stopWhen: (m) => m.episodesWindow >= 20 && (m.episodeReturnMean ?? 0) >= THRESHOLD,
    });
    const last = result.metrics[result.metrics.length - 1];
    expect(result.globalStep).toBeLessThanOrEqual(BUDGET_STEPS);
    expect(last.episodesWindow).toBe(20);
    expect(last.episodeReturnMean).toBeGreaterThanOrEqual(THRESHOLD);
    expect(result.stoppedBy).toBe('stopWhen');
    // The first update's episodes come from the near-uniform initial policy.
    expect(result.metrics[0].episodeReturnMean ?? Infinity).toBeLessThan(60);
    // Greedy evaluation of the trained policy on fresh episodes does well too.
    const env = new CartPole();
    let obs = env.reset({ seed: 12345 }).observation;
    let steps = 0;
    for (;;) {
      const s = env.step(await result.agent.act(obs));
      steps++;
      if (s.terminated || s.truncated) break;
      obs = s.observation;
    }
    expect(steps).toBeGreaterThanOrEqual(100);
  });

  it('GRPO (group-relative advantages, no critic) improves the return over a random policy', async () => {
    const result = await grpo({
      ...cartPoleTask(16, { autoreset: 'same-step' }),
      backend: new CpuBackend(),
      config: { seed: 1, groupSize: 8, totalTimesteps: 16_000, learningRate: 1e-3, minibatchSize: 256 },
      stopWhen: (m) => (m.episodeReturnMean ?? 0) >= 60,
    });
    // Random play scores ≈ 22: the first update is near it, the last past 60 (bench/README.md, Design measurements).
    expect(result.metrics[0].groupReturnMean).toBeLessThan(40);
    expect(result.metrics[result.metrics.length - 1].episodeReturnMean).toBeGreaterThanOrEqual(60);
  });

  it('group advantages are standardised within each group', () => {
    // Group 1: returns 1, 2, 3 → mean 2, population std √(2/3); group 2 all equal → 0.
    const adv = groupAdvantages([1, 2, 3, 5, 5, 5], 3);
    const sd = Math.sqrt(2 / 3);
    [-1 / sd, 0, 1 / sd, 0, 0, 0].forEach((v, i) => expect(adv[i]).toBeCloseTo(v, 6));
    expect(() => groupAdvantages([1, 2, 3], 2)).toThrow(/groups of 2/);
  });
});
