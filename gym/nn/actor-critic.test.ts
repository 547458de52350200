/**
 * Whole-network gradients: the CPU ActorCritic's backward against finite differences of
 * L = Σ Gπ ⊙ logits + Σ Gv ⊙ values, and the WebGPU network against the CPU one
 * (forward, backward, one Adam step) from identical seeded parameters.
 */
import { describe, expect, it } from 'vitest';
import { ActorCritic, networkInputSize, type NetworkSpec } from './actor-critic';
import { Adam } from './adam';
import type { Backend } from './backend';
import { CpuBackend } from './cpu-backend';
import { Rng } from '../random/rng';
import { acquireTestWebGpu, describeWebGpu, expectClose, randomArray } from './test-support';

const cpu = new CpuBackend();
const gpu = await acquireTestWebGpu();

const mlpSpec: NetworkSpec = { kind: 'mlp', obsSize: 5, numActions: 3, hidden: [6, 7], activation: 'tanh' };
const tinyCnnSpec: NetworkSpec = { kind: 'cnn', inputShape: [2, 36, 36], numActions: 3, channels: [2, 3, 4], hidden: 5 };
const tinyKeypointSpec: NetworkSpec = {
  kind: 'keypoints',
  inputShape: [2, 20, 20],
  numActions: 3,
  channels: [2, 3],
  kernels: [4, 3],
  strides: [2, 1],
  hidden: 5,
};
const scorerSpec: NetworkSpec = { kind: 'scorer', numActions: 4, featuresPerAction: 3, hidden: [5], activation: 'tanh' };

function projectedLoss(net: ActorCritic, obs: ReturnType<Backend['tensor']>, gLogits: Float32Array, gValues: Float32Array): number {
  const { logits, values } = net.forward(obs);
  const l = cpu.data(logits);
  const v = cpu.data(values);
  let s = 0;
  for (let i = 0; i < l.length; i++) s += gLogits[i] * l[i];
  for (let i = 0; i < v.length; i++) s += gValues[i] * v[i];
  return s;
}

describe('ActorCritic gradients (CPU) match finite differences', { timeout: 60_000 }, () => {
  for (const spec of [mlpSpec, tinyCnnSpec, tinyKeypointSpec, scorerSpec]) {
    it(`${spec.kind}: every parameter, both heads and each head alone`, () => {
      const rng = new Rng(3);
      const batch = 3;
      const net = new ActorCritic(cpu, spec, 42);
      const obs = cpu.tensor([batch, networkInputSize(spec)], randomArray(rng, batch * networkInputSize(spec)));
      const gLogits = randomArray(rng, batch * spec.numActions);
      const gValues = randomArray(rng, batch);
      const params = cpu.data(net.store.params);
      // Central differences over every parameter; h = 1e-3 is small enough not to cross ReLU kinks
      // here and large enough for float32 rounding (tolerance 1e-3 + 1e-2·|g|).
      const h = 1e-3;
      const numeric = new Float64Array(params.length);
      for (let i = 0; i < params.length; i++) {
        const saved = params[i];
        params[i] = saved + h;
        const plus = projectedLoss(net, obs, gLogits, gValues);
        params[i] = saved - h;
        const minus = projectedLoss(net, obs, gLogits, gValues);
        params[i] = saved;
        numeric[i] = (plus - minus) / (2 * h);
      }
      net.forward(obs);
      net.backward(cpu.tensor([batch, spec.numActions], gLogits), cpu.tensor([batch, 1], gValues));
      expectClose(cpu.data(net.store.grads), numeric, 1e-3, 1e-2, `${spec.kind} grads`);

      // Each head alone: the gradients add up to the joint gradient.
      net.forward(obs);
      net.backward(cpu.tensor([batch, spec.numActions], gLogits), null);
      const policyOnly = cpu.data(net.store.grads).slice();
      net.forward(obs);
      net.backward(null, cpu.tensor([batch, 1], gValues));
      const valueOnly = cpu.data(net.store.grads).slice();
      expectClose(
        policyOnly.map((g, i) => g + valueOnly[i]),
        numeric,
        1e-3,
        1e-2,
        `${spec.kind} head sum`,
      );
      if (spec.kind === 'mlp' || spec.kind === 'scorer') {
        const actorOut = net.store.entry('actor.out.weight');
        expect(valueOnly.subarray(actorOut.offset, actorOut.offset + actorOut.size).every((g) => g === 0)).toBe(true);
      }
    });
  }

  it('Nature-CNN default shape has the expected parameter count', () => {
    const net = new ActorCritic(cpu, { kind: 'cnn', inputShape: [4, 84, 84], numActions: 6, channels: [32, 64, 64], hidden: 512 }, null);
    // conv1 4·8·8·32+32, conv2 32·4·4·64+64, conv3 64·3·3·64+64, fc 3136·512+512, heads 512·6+6 and 512+1
    const expected = 8224 + 32832 + 36928 + 1606144 + 3078 + 513;
    expect(net.paramCount).toBe(expected);
  });

  it('scorer: one shared actor scores every action row, so permuting the rows permutes the logits', async () => {
    const net = new ActorCritic(cpu, scorerSpec, 8);
    // actor 3→5→1 shared by the 4 rows; critic 12→5→1 over all of them.
    expect(net.paramCount).toBe(3 * 5 + 5 + 5 + 1 + (12 * 5 + 5 + 5 + 1));
    const rows = randomArray(new Rng(4), 12);
    const order = [2, 0, 3, 1];
    const permuted = order.flatMap((r) => Array.from(rows.subarray(r * 3, r * 3 + 3)));
    const logits = (x: ArrayLike<number>) => Array.from(cpu.data(net.forward(cpu.tensor([1, 12], x)).logits));
    const a = logits(rows);
    const b = logits(permuted);
    expect(new Set(a).size).toBe(4);
    order.forEach((r, i) => expect(b[i]).toBeCloseTo(a[r], 6));
  });
});

describeWebGpu('ActorCritic on WebGPU matches the CPU network', gpu, (webgpu) => {
  const cases: [string, NetworkSpec, number][] = [
    ['mlp 4→64→64 (CartPole)', { kind: 'mlp', obsSize: 4, numActions: 2, hidden: [64, 64], activation: 'tanh' }, 37],
    ['scorer 40 rows × 8 → 64 → 64 (Tetris afterstates)', { kind: 'scorer', numActions: 40, featuresPerAction: 8, hidden: [64, 64], activation: 'tanh' }, 19],
    ['cnn 4×84×84, channels 8/16/16, fc 32', { kind: 'cnn', inputShape: [4, 84, 84], numActions: 5, channels: [8, 16, 16], hidden: 32 }, 3],
    [
      'keypoints 3×84×84, channels 8/16, fc 32',
      { kind: 'keypoints', inputShape: [3, 84, 84], numActions: 5, channels: [8, 16], kernels: [8, 3], strides: [4, 1], hidden: 32 },
      3,
    ],
  ];
  for (const [name, spec, batch] of cases) {
    it(`${name}: forward, backward and an Adam step`, async () => {
      const rng = new Rng(9);
      const obsData = randomArray(rng, batch * networkInputSize(spec));
      const gLogits = randomArray(rng, batch * spec.numActions);
      const gValues = randomArray(rng, batch);
      const run = async (b: Backend) => {
        const net = new ActorCritic(b, spec, 5);
        const adam = new Adam(b, net.store, { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-5, maxGradNorm: 0.5 });
        const { logits, values } = net.forward(b.tensor([batch, networkInputSize(spec)], obsData));
        const [l, v] = await b.readMany([logits, values]);
        net.backward(b.tensor([batch, spec.numActions], gLogits), b.tensor([batch, 1], gValues));
        const g = await b.read(net.store.grads);
        adam.step();
        const p = await b.read(net.store.params);
        return { l, v, g, p };
      };
      const c = await run(cpu);
      const w = await run(webgpu);
      expectClose(w.l, c.l, 1e-4, 1e-3, 'logits');
      expectClose(w.v, c.v, 1e-4, 1e-3, 'values');
      expectClose(w.g, c.g, 1e-4, 2e-3, 'gradients');
      expectClose(w.p, c.p, 1e-5, 1e-4, 'parameters after Adam');
    });
  }
});
