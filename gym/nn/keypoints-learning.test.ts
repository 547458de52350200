/**
 * What the keypoint network is for: a decision that depends on where one object is relative to
 * another. Two lone pixels, each in its own channel; the label says whether the first lies left
 * of the second. Trained by cross-entropy through the policy head on the CPU backend, the
 * network must get nearly every fresh image right, which it cannot without a working soft-argmax
 * (its gradients included).
 */
import { expect, it } from 'vitest';
import { ActorCritic, type NetworkSpec } from './actor-critic';
import { Adam } from './adam';
import { CpuBackend } from './cpu-backend';
import { Rng } from '../random/rng';

const SIZE = 12;
const spec: NetworkSpec = { kind: 'keypoints', inputShape: [2, SIZE, SIZE], numActions: 2, channels: [4, 4], kernels: [1, 1], strides: [1, 1], hidden: 16 };

function batch(rng: Rng, n: number): { images: Float32Array; labels: number[] } {
  const plane = SIZE * SIZE;
  const images = new Float32Array(n * 2 * plane);
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const at = () => Math.floor(rng.next() * SIZE);
    const [x0, y0, y1] = [at(), at(), at()];
    let x1 = at();
    while (x1 === x0) x1 = at();
    images[i * 2 * plane + y0 * SIZE + x0] = 1;
    images[i * 2 * plane + plane + y1 * SIZE + x1] = 1;
    labels.push(x0 < x1 ? 1 : 0);
  }
  return { images, labels };
}

it('learns which of two objects lies left of the other (spatial soft-argmax)', { timeout: 60_000 }, async () => {
  const b = new CpuBackend({ threads: false });
  const net = new ActorCritic(b, spec, 3);
  const adam = new Adam(b, net.store, { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, maxGradNorm: 10 });
  const rng = new Rng(5);
  const n = 64;
  const dLogits = b.tensor([n, 2]);
  for (let step = 0; step < 400; step++) {
    const { images, labels } = batch(rng, n);
    const { logits } = net.forward(b.tensor([n, 2 * SIZE * SIZE], images));
    const z = b.data(logits);
    // Cross-entropy's gradient: softmax − one-hot, averaged over the batch.
    const g = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      const p1 = 1 / (1 + Math.exp(z[2 * i] - z[2 * i + 1]));
      g[2 * i] = (1 - p1 - (labels[i] === 0 ? 1 : 0)) / n;
      g[2 * i + 1] = (p1 - (labels[i] === 1 ? 1 : 0)) / n;
    }
    b.write(dLogits, g);
    net.backward(dLogits, null);
    adam.step();
  }
  const test = batch(new Rng(99), 500);
  const z = b.data(net.forward(b.tensor([500, 2 * SIZE * SIZE], test.images)).logits);
  const correct = test.labels.filter((label, i) => (z[2 * i + 1] > z[2 * i] ? 1 : 0) === label).length;
  expect(correct / 500).toBeGreaterThan(0.95);
});
