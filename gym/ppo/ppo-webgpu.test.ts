/**
 * End to end on WebGPU: one PPO update on CartPole gives the same rollout, losses and
 * parameters as the CPU backend (same seed; on-device sampling draws the same actions).
 * Tolerance 1e-3 relative on losses and 1e-4 + 1e-3·|p| on parameters.
 */
import { expect, it } from 'vitest';
import { cartPoleTask } from '../cartpole';
import { CpuBackend } from '../nn/cpu-backend';
import { acquireTestWebGpu, describeWebGpu, expectClose } from '../nn/test-support';
import { train } from './train';

const gpu = await acquireTestWebGpu();

describeWebGpu('PPO on WebGPU matches the CPU backend', gpu, (webgpu) => {
  it('one CartPole update: same episodes, losses and parameters', async () => {
    const run = (backend: CpuBackend | typeof webgpu) =>
      train({
        ...cartPoleTask(4, { autoreset: 'same-step' }),
        backend,
        config: { seed: 3, numSteps: 64, totalTimesteps: 256, learningRate: 1e-3 },
      });
    const [c, g] = [await run(new CpuBackend()), await run(webgpu)];
    const mc = c.metrics[0];
    const mg = g.metrics[0];
    expect(mg.episodesThisUpdate).toBe(mc.episodesThisUpdate);
    expect(mg.episodeReturnMean).toBe(mc.episodeReturnMean);
    for (const k of ['policyLoss', 'valueLoss', 'entropy', 'approxKl', 'clipFracLow', 'clipFracHigh', 'explainedVariance'] as const) {
      expectClose([mg[k] ?? NaN], [mc[k] ?? NaN], 1e-5, 1e-3, k);
    }
    const [pc, pg] = [(await c.checkpoint()).blobs.get('params'), (await g.checkpoint()).blobs.get('params')];
    expectClose(pg ?? [], pc ?? [], 1e-4, 1e-3, 'parameters');
  });
});
