/**
 * Clip-higher bookkeeping on a fixed batch: ratios are set exactly by choosing the old
 * log-probs, so clip fractions, the loss and the KL estimate can be computed by hand.
 */
import { describe, expect, it } from 'vitest';
import { ActorCritic } from '../nn/actor-critic';
import { Adam } from '../nn/adam';
import type { Backend } from '../nn/backend';
import { CpuBackend } from '../nn/cpu-backend';
import { Rng } from '../random/rng';
import { acquireTestWebGpu, describeWebGpu, randomArray } from '../nn/test-support';
import { PpoLearner, type LossStats } from './learner';

const RATIOS = [0.7, 0.79, 0.81, 1.0, 1.21, 1.27, 1.29, 1.5];
const ADVANTAGES = [1, -1, -1, 1, -1, 1, 1, -1];
const ACTIONS = [0, 1, 2, 0, 1, 2, 0, 1];

async function statsFor(backend: Backend, epsLow: number, epsHigh: number): Promise<LossStats> {
  const net = new ActorCritic(backend, { kind: 'mlp', obsSize: 3, numActions: 3, hidden: [8], activation: 'tanh' }, 4);
  const adam = new Adam(backend, net.store, { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-5, maxGradNorm: 0.5 });
  const n = RATIOS.length;
  const obs = randomArray(new Rng(2), n * 3);
  const logits = await backend.read(net.forward(backend.tensor([n, 3], obs)).logits);
  const oldLogProbs = RATIOS.map((r, i) => {
    const row = Array.from(logits.subarray(i * 3, i * 3 + 3));
    const max = Math.max(...row);
    const lse = max + Math.log(row.reduce((s, z) => s + Math.exp(z - max), 0));
    return row[ACTIONS[i]] - lse - Math.log(r); // so that π/π_old = r
  });
  const learner = new PpoLearner(net, adam, n, n, 1);
  // One epoch with one minibatch: the stats are taken on the forward pass before the Adam step.
  return learner.update(
    { n, obs, actions: ACTIONS, logProbs: oldLogProbs, advantages: ADVANTAGES, returns: new Float32Array(n), values: new Float32Array(n) },
    { epochs: 1, minibatchSize: n, epsLow, epsHigh, entCoef: 0, vfCoef: 0.5, valueClip: null, targetKl: null, trainPolicy: true, trainValue: false },
    new Rng(1),
  );
}

function handComputed(epsLow: number, epsHigh: number) {
  const n = RATIOS.length;
  const loss = RATIOS.reduce((s, r, i) => {
    const a = ADVANTAGES[i];
    return s + Math.max(-a * r, -a * Math.min(Math.max(r, 1 - epsLow), 1 + epsHigh));
  }, 0);
  return { loss: loss / n, kl: RATIOS.reduce((s, r) => s + (r - 1 - Math.log(r)), 0) / n, epsLow, epsHigh };
}

function checkAgainstHand(s: LossStats, clipHigher: boolean): void {
  if (clipHigher) {
    // ε_low 0.2, ε_high 0.28: below 0.8 → {0.7, 0.79}; above 1.28 → {1.29, 1.5}.
    expect(s.clipFracLow).toBeCloseTo(2 / 8, 6);
    expect(s.clipFracHigh).toBeCloseTo(2 / 8, 6);
    // Gradient actually clipped: low side needs A < 0 (0.79), high side A > 0 (1.29).
    expect(s.clipActiveLow).toBeCloseTo(1 / 8, 6);
    expect(s.clipActiveHigh).toBeCloseTo(1 / 8, 6);
  } else {
    // Symmetric 0.2: above 1.2 → {1.21, 1.27, 1.29, 1.5}; A > 0 among them: 1.27, 1.29.
    expect(s.clipFracLow).toBeCloseTo(2 / 8, 6);
    expect(s.clipFracHigh).toBeCloseTo(4 / 8, 6);
    expect(s.clipActiveLow).toBeCloseTo(1 / 8, 6);
    expect(s.clipActiveHigh).toBeCloseTo(2 / 8, 6);
  }
  const hand = clipHigher ? handComputed(0.2, 0.28) : handComputed(0.2, 0.2);
  expect(s.policyLoss).toBeCloseTo(hand.loss, 5);
  expect(s.approxKl).toBeCloseTo(hand.kl, 5);
}

describe('clip fractions on a fixed batch (CPU)', () => {
  it('clip-higher (0.2 / 0.28) matches the hand calculation', async () => {
    checkAgainstHand(await statsFor(new CpuBackend(), 0.2, 0.28), true);
  });
  it('symmetric clipping (0.2 / 0.2) matches the hand calculation', async () => {
    checkAgainstHand(await statsFor(new CpuBackend(), 0.2, 0.2), false);
  });
});

const gpu = await acquireTestWebGpu();
describeWebGpu('clip fractions on a fixed batch (WebGPU)', gpu, (webgpu) => {
  it('clip-higher and symmetric clipping match the hand calculation', async () => {
    checkAgainstHand(await statsFor(webgpu, 0.2, 0.28), true);
    checkAgainstHand(await statsFor(webgpu, 0.2, 0.2), false);
  });
});
