/**
 * Every WebGPU kernel against the CPU reference backend on the same random inputs.
 * Tolerances: float32 on both sides with different summation/exp implementations, so
 * |gpu − cpu| ≤ atol + rtol·|cpu| with atol = rtol = 1e-4 unless stated (2e-4 for sums
 * over hundreds of terms).
 */
import { expect, it } from 'vitest';
import { OPT_STATE_WIDTH, OptState, POLICY_STATS_WIDTH, PPO_BATCH_WIDTH, type Activation, type ConvGeometry } from './backend';
import { convOutputSize } from './backend';
import { CpuBackend } from './cpu-backend';
import { hashUniform } from './hash-rng';
import { Rng } from '../random/rng';
import { makeView } from './tensor';
import { acquireTestWebGpu, describeWebGpu, expectClose, randomArray } from './test-support';

const gpu = await acquireTestWebGpu();
const cpu = new CpuBackend();

describeWebGpu('WebGPU kernels match the CPU backend', gpu, (webgpu) => {
  const both = [cpu, webgpu] as const;
  const rng = new Rng(7);

  async function compare(run: (b: CpuBackend | typeof webgpu) => ReturnType<typeof cpu.tensor>[], atol = 1e-4, rtol = 1e-4) {
    const [outC, outG] = both.map((b) => run(b));
    const c = await cpu.readMany(outC);
    const g = await webgpu.readMany(outG);
    c.forEach((expected, i) => expectClose(g[i], expected, atol, rtol, `output ${i}`));
  }

  it('fill, copy and views at unaligned offsets', async () => {
    const data = randomArray(rng, 100);
    await compare((b) => {
      const t = b.tensor([100], data);
      const out = b.tensor([10, 7]);
      b.fill(out, 3.5);
      b.copy(makeView(t, 13, [5, 7]), makeView(out, 21, [5, 7]));
      return [out];
    });
  });

  for (const [transA, transB] of [
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ] as const) {
    it(`matmul transA=${transA} transB=${transB} (odd and aligned sizes, views)`, async () => {
      // Odd sizes and offsets take the scalar kernel; multiples of 4 with aligned offsets the vec4 one.
      for (const [M, K, N, offA, offB] of [
        [37, 29, 45, 5, 3],
        [1, 64, 3, 5, 3],
        [130, 70, 67, 5, 3],
        [36, 28, 44, 8, 4],
        [4, 64, 8, 0, 0],
        [130, 72, 68, 4, 12],
      ]) {
        const a = randomArray(rng, M * K + offA);
        const bData = randomArray(rng, K * N + offB);
        await compare(
          (be) => {
            const A = makeView(be.tensor([M * K + offA], a), offA, transA ? [K, M] : [M, K]);
            const B = makeView(be.tensor([K * N + offB], bData), offB, transB ? [N, K] : [K, N]);
            const C = be.tensor([M, N]);
            be.matmul(A, B, C, { transA, transB });
            return [C];
          },
          2e-4,
          2e-4,
        );
      }
    });
  }

  for (const [activation, [M, K, N]] of [
    ['relu', [33, 17, 19]],
    ['tanh', [33, 17, 19]],
    ['relu', [32, 16, 20]],
  ] as [Activation, number[]][]) {
    it(`matmul ${M}×${K}×${N} + bias + ${activation}, and accumulate`, async () => {
      const a = randomArray(rng, M * K);
      const w = randomArray(rng, K * N);
      const bias = randomArray(rng, N);
      const c0 = randomArray(rng, M * N);
      await compare((be) => {
        const A = be.tensor([M, K], a);
        const W = be.tensor([K, N], w);
        const out = be.tensor([M, N]);
        be.matmul(A, W, out, { bias: be.tensor([N], bias), activation });
        const acc = be.tensor([M, N], c0);
        be.matmul(A, W, acc, { accumulate: true });
        return [out, acc];
      });
    });
  }

  for (const activation of ['relu', 'tanh'] as Activation[]) {
    it(`activationBackward ${activation}`, async () => {
      const dy = randomArray(rng, 500);
      const y = activation === 'tanh' ? randomArray(rng, 500, 0.99) : randomArray(rng, 500);
      await compare((be) => {
        const dx = be.tensor([500]);
        be.activationBackward(be.tensor([500], dy), be.tensor([500], y), activation, dx);
        return [dx];
      });
    });
  }

  it('sumRows (set and accumulate), sumSquares', async () => {
    const x = randomArray(rng, 300 * 7);
    const init = randomArray(rng, 7);
    await compare(
      (be) => {
        const X = be.tensor([300, 7], x);
        const set = be.tensor([7]);
        be.sumRows(X, set);
        const acc = be.tensor([7], init);
        be.sumRows(X, acc, true);
        const sq = be.tensor([2]);
        be.sumSquares(X, makeView(sq, 1, [1]));
        be.sumSquares(X, makeView(sq, 1, [1]), true);
        return [set, acc, sq];
      },
      2e-4,
      2e-4,
    );
  });

  const geometries: ConvGeometry[] = [
    { batch: 2, inChannels: 3, inHeight: 13, inWidth: 13, outChannels: 6, kernel: 4, stride: 2 },
    { batch: 3, inChannels: 5, inHeight: 9, inWidth: 10, outChannels: 8, kernel: 3, stride: 1 },
    { batch: 2, inChannels: 4, inHeight: 84, inWidth: 84, outChannels: 8, kernel: 8, stride: 4 },
  ];
  for (const g of geometries) {
    const label = `${g.batch}×${g.inChannels}×${g.inHeight}×${g.inWidth} k${g.kernel} s${g.stride} → ${g.outChannels}`;
    it(`conv2d forward and backward ${label}`, async () => {
      const { outHeight, outWidth } = convOutputSize(g);
      const xSize = g.batch * g.inChannels * g.inHeight * g.inWidth;
      const wSize = g.inChannels * g.kernel * g.kernel * g.outChannels;
      const ySize = g.batch * g.outChannels * outHeight * outWidth;
      const x = randomArray(rng, xSize);
      const w = randomArray(rng, wSize, 0.3);
      const bias = randomArray(rng, g.outChannels);
      const dy = randomArray(rng, ySize);
      await compare(
        (be) => {
          const X = be.tensor([xSize], x);
          const Wt = be.tensor([wSize], w);
          const Y = be.tensor([ySize]);
          be.conv2d(X, Wt, be.tensor([g.outChannels], bias), Y, g, 'relu');
          const Y2 = be.tensor([ySize]);
          be.conv2d(X, Wt, null, Y2, g);
          const DY = be.tensor([ySize], dy);
          const DX = be.tensor([xSize]);
          be.conv2dBackwardInput(DY, Wt, DX, g);
          const DW = be.tensor([wSize]);
          be.conv2dBackwardWeight(DY, X, DW, g);
          const DB = be.tensor([g.outChannels]);
          be.conv2dBackwardBias(DY, DB, g);
          return [Y, Y2, DX, DW, DB];
        },
        5e-4,
        2e-4,
      );
    });
  }

  it('spatialSoftmax and its backward pass (odd map sizes, views at unaligned offsets)', async () => {
    for (const g of [
      { batch: 3, channels: 5, height: 18, width: 18 },
      { batch: 2, channels: 3, height: 7, width: 1 },
    ]) {
      const n = g.batch * g.channels * g.height * g.width;
      const x = randomArray(rng, n + 3, 4);
      const dy = randomArray(rng, g.batch * g.channels * 2 + 1);
      await compare((b) => {
        const maps = makeView(b.tensor([n + 3], x), 3, [n]);
        const keypoints = b.tensor([g.batch, g.channels, 2]);
        const dx = b.tensor([n]);
        b.spatialSoftmax(maps, keypoints, g);
        b.spatialSoftmaxBackward(maps, makeView(b.tensor([dy.length], dy), 1, [dy.length - 1]), dx, g);
        return [keypoints, dx];
      });
    }
  });

  it('logSoftmax, entropy, gatherRows', async () => {
    const rows = 70;
    const cols = 9;
    const z = randomArray(rng, rows * cols, 4);
    const idx = Float32Array.from({ length: 40 }, () => rng.int(rows));
    await compare((be) => {
      const Z = be.tensor([rows, cols], z);
      const ls = be.tensor([rows, cols]);
      be.logSoftmax(Z, ls);
      const h = be.tensor([rows]);
      be.entropy(Z, h);
      const g = be.tensor([40, cols]);
      be.gatherRows(Z, be.tensor([40], idx), g);
      return [ls, h, g];
    });
  });

  it('sampleCategorical draws the same actions for the same (seed, counter, row)', async () => {
    const rows = 500;
    const cols = 6;
    const z = randomArray(rng, rows * cols, 2);
    const outs = both.map((be) => {
      const a = be.tensor([rows]);
      const l = be.tensor([rows]);
      be.sampleCategorical(be.tensor([rows, cols], z), 1234, 99, a, l);
      return [a, l];
    });
    const [aC, lC] = await cpu.readMany(outs[0]);
    const [aG, lG] = await webgpu.readMany(outs[1]);
    // Only a uniform within float32 rounding of a CDF boundary may legitimately differ.
    let mismatches = 0;
    for (let i = 0; i < rows; i++) {
      if (aC[i] === aG[i]) continue;
      const u = hashUniform(1234, 99, i);
      const row = Array.from(z.subarray(i * cols, (i + 1) * cols));
      const max = Math.max(...row);
      const total = row.reduce((s, v) => s + Math.exp(v - max), 0);
      let cdf = 0;
      const nearBoundary = row.some((v) => {
        cdf += Math.exp(v - max) / total;
        return Math.abs(cdf - u) < 1e-5;
      });
      expect(nearBoundary, `row ${i}: cpu ${aC[i]} gpu ${aG[i]}`).toBe(true);
      mismatches++;
    }
    expect(mismatches).toBeLessThanOrEqual(2);
    expectClose(lG, lC, 1e-4, 1e-4, 'log-probs');
  });

  it('maskLogits: masked actions are never sampled and carry no entropy or policy gradient', async () => {
    const rows = 400;
    const cols = 7;
    const z = randomArray(rng, rows * cols, 3);
    // Every row keeps at least one action; the last column is masked often, which the sampler's rounding fallback must skip.
    const mask = new Float32Array(rows * cols);
    for (let i = 0; i < rows; i++) {
      const keep = rng.int(cols - 1);
      for (let j = 0; j < cols; j++) mask[i * cols + j] = j === keep || (j < cols - 1 && rng.uniform() < 0.5) ? 1 : 0;
    }
    const batch = new Float32Array(rows * PPO_BATCH_WIDTH);
    for (let i = 0; i < rows; i++) {
      const b = i * PPO_BATCH_WIDTH;
      const legal = Array.from({ length: cols }, (_, j) => j).filter((j) => mask[i * cols + j] === 1);
      batch[b] = legal[rng.int(legal.length)];
      batch[b + 1] = Math.log(0.05 + 0.9 * rng.uniform());
      batch[b + 2] = rng.normal();
      batch[b + 5] = 1 / rows;
    }
    const outs = both.map((be) => {
      const logits = be.tensor([rows, cols], z);
      be.maskLogits(logits, be.tensor([rows, cols], mask));
      const a = be.tensor([rows]);
      const l = be.tensor([rows]);
      be.sampleCategorical(logits, 77, 3, a, l);
      const h = be.tensor([rows]);
      be.entropy(logits, h);
      const dLogits = be.tensor([rows, cols]);
      const stats = be.tensor([rows, POLICY_STATS_WIDTH]);
      be.ppoPolicyLoss(logits, be.tensor([rows, PPO_BATCH_WIDTH], batch), dLogits, stats, { epsLow: 0.2, epsHigh: 0.28, entCoef: 0.01 });
      return [logits, a, h, dLogits, stats];
    });
    const [zC, aC, hC, dC, sC] = await cpu.readMany(outs[0]);
    const [zG, aG, hG, dG, sG] = await webgpu.readMany(outs[1]);
    for (const [name, actions] of [
      ['cpu', aC],
      ['webgpu', aG],
    ] as const) {
      for (let i = 0; i < rows; i++) expect(mask[i * cols + actions[i]], `${name} row ${i} sampled masked action ${actions[i]}`).toBe(1);
    }
    for (let k = 0; k < rows * cols; k++) {
      if (mask[k] === 0) {
        expect(zC[k]).toBe(zG[k]);
        expect(Math.abs(dC[k]), `cpu gradient of masked logit ${k}`).toBe(0);
        expect(Math.abs(dG[k]), `webgpu gradient of masked logit ${k}`).toBe(0);
      } else expect(zC[k]).toBe(z[k]);
    }
    // The entropy is that of the legal actions alone.
    const i0 = 0;
    const legal = Array.from({ length: cols }, (_, j) => z[i0 * cols + j]).filter((_, j) => mask[i0 * cols + j] === 1);
    const m = Math.max(...legal);
    const ps = legal.map((v) => Math.exp(v - m));
    const total = ps.reduce((s, v) => s + v, 0);
    const expected = -ps.reduce((s, v) => s + (v / total) * Math.log(v / total), 0);
    expect(hC[i0]).toBeCloseTo(expected, 5);
    expectClose(hG, hC, 1e-4, 1e-4, 'entropy');
    expectClose(dG, dC, 1e-4, 1e-4, 'policy gradient');
    expectClose(sG, sC, 1e-4, 1e-4, 'policy stats');
  });

  it('ppoPolicyLoss and ppoValueLoss (gradients and stats)', async () => {
    const rows = 150;
    const cols = 5;
    const z = randomArray(rng, rows * cols, 2);
    const batch = new Float32Array(rows * PPO_BATCH_WIDTH);
    for (let i = 0; i < rows; i++) {
      const b = i * PPO_BATCH_WIDTH;
      batch[b] = rng.int(cols);
      batch[b + 1] = Math.log(0.05 + 0.9 * rng.uniform()); // old log-prob: ratios spread across both clip sides
      batch[b + 2] = rng.normal();
      batch[b + 3] = rng.normal() * 3;
      batch[b + 4] = rng.normal() * 3;
      batch[b + 5] = i % 17 === 0 ? 0 : 1 / rows;
    }
    const values = randomArray(rng, rows, 4);
    await compare((be) => {
      const B = be.tensor([rows, PPO_BATCH_WIDTH], batch);
      const dZ = be.tensor([rows, cols]);
      const ps = be.tensor([rows, POLICY_STATS_WIDTH]);
      be.ppoPolicyLoss(be.tensor([rows, cols], z), B, dZ, ps, { epsLow: 0.2, epsHigh: 0.28, entCoef: 0.01 });
      const V = be.tensor([rows, 1], values);
      const dV = be.tensor([rows, 1]);
      const vs = be.tensor([rows, 1]);
      be.ppoValueLoss(V, B, dV, vs, { clipCoef: 0.2, vfCoef: 0.5 });
      const dV2 = be.tensor([rows, 1]);
      const vs2 = be.tensor([rows, 1]);
      be.ppoValueLoss(V, B, dV2, vs2, { clipCoef: null, vfCoef: 0.5 });
      return [dZ, ps, dV, vs, dV2, vs2];
    });
  });

  it('adamPrepare + adamUpdate with gradient clipping (three steps)', async () => {
    const n = 1000;
    const p0 = randomArray(rng, n);
    const grads = [randomArray(rng, n, 0.1), randomArray(rng, n, 0.1), randomArray(rng, n, 0.001)];
    const state = new Float32Array(OPT_STATE_WIDTH);
    state[OptState.lr] = 0.01;
    state[OptState.beta1] = 0.9;
    state[OptState.beta2] = 0.999;
    state[OptState.eps] = 1e-5;
    state[OptState.maxGradNorm] = 0.5;
    await compare(
      (be) => {
        const P = be.tensor([n], p0);
        const M = be.tensor([n]);
        const V = be.tensor([n]);
        const S = be.tensor([OPT_STATE_WIDTH], state);
        for (const g of grads) {
          const G = be.tensor([n], g);
          be.sumSquares(G, makeView(S, OptState.gradSumSq, [1]));
          be.adamPrepare(S);
          be.adamUpdate(P, G, M, V, S);
        }
        return [P, M, V, S];
      },
      1e-5,
      1e-4,
    );
  });

  it('rejects an output that shares storage with an input', () => {
    const t = webgpu.tensor([8]);
    expect(() => webgpu.copy(makeView(t, 0, [4]), makeView(t, 4, [4]))).toThrow(/shares storage/);
  });
});
