/**
 * Gradients of the CPU reference backend against central finite differences.
 * Each backward op is checked through a scalar L = Σ G ⊙ f(x) with a random projection G,
 * so dL/dx is exactly what the backward op computes from dy = G. Inputs are float32, so
 * tolerances are |analytic − numeric| ≤ 2e-3 + 1e-2·|numeric| with step h = 1e-3 (stated
 * per test where different).
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { OPT_STATE_WIDTH, OptState, POLICY_STATS_WIDTH, PPO_BATCH_WIDTH, PolicyStat, type Activation, type ConvGeometry } from './backend';
import { convOutputSize } from './backend';
import { CpuBackend } from './cpu-backend';
import { Rng } from '../random/rng';
import { makeView, type Tensor } from './tensor';
import { expectClose, randomArray } from './test-support';

const cpu = new CpuBackend();
const rng = new Rng(11);
/** ±1 or ±big: products of ±2²⁶ and ±2²⁷ terms mix values near 2⁵³ with ones (order-sensitive sums). */
const pick = (big: number) => (rng.next() < 0.5 ? -1 : 1) * (rng.next() < 0.5 ? big : 1);

/** Central differences of `loss` w.r.t. every element of tensor `x` (perturbed in place). */
function numericGradient(x: Tensor, loss: () => number, h = 1e-3): Float64Array {
  const data = cpu.data(x);
  const grad = new Float64Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const saved = data[i];
    data[i] = saved + h;
    const plus = loss();
    data[i] = saved - h;
    const minus = loss();
    data[i] = saved;
    grad[i] = (plus - minus) / (2 * h);
  }
  return grad;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

const ATOL = 2e-3;
const RTOL = 1e-2;

describe('CPU backend gradients match finite differences', { timeout: 60_000 }, () => {
  for (const activation of ['none', 'relu', 'tanh'] as Activation[]) {
    it(`dense layer y = ${activation}(x·W + b): dx, dW, db`, () => {
      const [B, I, O] = [4, 5, 3];
      const x = cpu.tensor([B, I], randomArray(rng, B * I));
      const w = cpu.tensor([I, O], randomArray(rng, I * O));
      const b = cpu.tensor([O], randomArray(rng, O));
      const y = cpu.tensor([B, O]);
      const G = randomArray(rng, B * O);
      const loss = () => {
        cpu.matmul(x, w, y, { bias: b, activation });
        return dot(G, cpu.data(y));
      };
      loss();
      const dz = cpu.tensor([B, O]);
      cpu.activationBackward(cpu.tensor([B, O], G), y, activation, dz);
      const dx = cpu.tensor([B, I]);
      const dw = cpu.tensor([I, O]);
      const db = cpu.tensor([O]);
      cpu.matmul(dz, w, dx, { transB: true });
      cpu.matmul(x, dz, dw, { transA: true });
      cpu.sumRows(dz, db);
      expectClose(cpu.data(dx), numericGradient(x, loss), ATOL, RTOL, 'dx');
      expectClose(cpu.data(dw), numericGradient(w, loss), ATOL, RTOL, 'dW');
      expectClose(cpu.data(db), numericGradient(b, loss), ATOL, RTOL, 'db');
    });
  }

  it('matmul transposes agree with explicit transposition and accumulate adds', () => {
    const [M, K, N] = [3, 4, 5];
    const a = randomArray(rng, M * K);
    const bm = randomArray(rng, K * N);
    const transpose = (m: Float32Array, r: number, c: number) => Float32Array.from({ length: r * c }, (_, i) => m[(i % r) * c + Math.floor(i / r)]);
    const ref = cpu.tensor([M, N]);
    cpu.matmul(cpu.tensor([M, K], a), cpu.tensor([K, N], bm), ref);
    const t = cpu.tensor([M, N]);
    cpu.matmul(cpu.tensor([K, M], transpose(a, M, K)), cpu.tensor([N, K], transpose(bm, K, N)), t, { transA: true, transB: true });
    expectClose(cpu.data(t), cpu.data(ref), 1e-6, 1e-5, 'AᵀᵀBᵀᵀ');
    cpu.matmul(cpu.tensor([M, K], a), cpu.tensor([K, N], bm), t, { accumulate: true });
    expectClose(
      cpu.data(t),
      cpu.data(ref).map((v) => 2 * v),
      1e-6,
      1e-5,
      'accumulate',
    );
    // a hand-checked 2×2 case
    const c = cpu.tensor([2, 2]);
    cpu.matmul(cpu.tensor([2, 2], [1, 2, 3, 4]), cpu.tensor([2, 2], [5, 6, 7, 8]), c);
    expect(Array.from(cpu.data(c))).toEqual([19, 22, 43, 50]);
  });

  it('matmul: every element is the float64 sum over k in ascending order, bit for bit, whatever the transposes and shapes', () => {
    // The loops are ordered for the cache; this pins the arithmetic, so checkpoints stay byte-identical across such rewrites.
    for (let trial = 0; trial < 200; trial++) {
      const [M, N, K] = [1 + Math.floor(rng.next() * 13), 1 + Math.floor(rng.next() * 13), 1 + Math.floor(rng.next() * 30)];
      const transA = rng.next() < 0.5;
      const transB = rng.next() < 0.5;
      const accumulate = rng.next() < 0.3;
      const activation: Activation = accumulate ? 'none' : (['none', 'tanh', 'relu'] as const)[Math.floor(rng.next() * 3)];
      const sparse = (n: number) => randomArray(rng, n).map((v) => (rng.next() < 0.3 ? 0 : v * 10 ** Math.floor(rng.next() * 4 - 2)));
      const [a, b, c0, bias] = [sparse(M * K), sparse(K * N), randomArray(rng, M * N), accumulate ? null : sparse(N)];
      const c = cpu.tensor([M, N], c0);
      cpu.matmul(cpu.tensor(transA ? [K, M] : [M, K], a), cpu.tensor(transB ? [N, K] : [K, N], b), c, {
        transA,
        transB,
        accumulate,
        activation,
        ...(bias ? { bias: cpu.tensor([N], bias) } : {}),
      });
      const want = new Float32Array(M * N);
      for (let i = 0; i < M; i++) {
        for (let j = 0; j < N; j++) {
          let sum = 0;
          for (let k = 0; k < K; k++) sum += a[transA ? k * M + i : i * K + k] * b[transB ? j * K + k : k * N + j];
          const x = accumulate ? c0[i * N + j] + sum : Math.fround(sum + (bias ? bias[j] : 0));
          want[i * N + j] = activation === 'tanh' ? Math.tanh(x) : activation === 'relu' ? Math.max(x, 0) : x;
        }
      }
      const label = `trial ${trial}: ${M}×${K}·${K}×${N}, transA ${transA}, transB ${transB}, accumulate ${accumulate}, ${activation}`;
      expect(Array.from(cpu.data(c)), label).toEqual(Array.from(want));
    }
    // Order-sensitive sums: products of ±1 and ±2²⁶⁻²⁷ mix terms near 2⁵³ with ones, so float64 rounding
    // keeps or drops the ones depending on the order, and the cancellations make that visible in float32.
    // The long ones run past one k slice (cpu-gemm.ts keeps 256 at a time): partial sums must resume in order.
    const sizes = [
      { kind: 'order-sensitive', trials: 100, kMin: 4, kSpan: 20 },
      { kind: 'long-sum', trials: 12, kMin: 257, kSpan: 600 },
    ];
    for (const { kind, trials, kMin, kSpan } of sizes) {
      for (let trial = 0; trial < trials; trial++) {
        const [M, N, K] = [1 + Math.floor(rng.next() * 9), 1 + Math.floor(rng.next() * 9), kMin + Math.floor(rng.next() * kSpan)];
        const transA = trial % 2 === 1;
        const transB = trial % 4 >= 2;
        const a = Float32Array.from({ length: M * K }, () => pick(2 ** 27));
        const b = Float32Array.from({ length: K * N }, () => pick(2 ** 26));
        const c = cpu.tensor([M, N]);
        cpu.matmul(cpu.tensor(transA ? [K, M] : [M, K], a), cpu.tensor(transB ? [N, K] : [K, N], b), c, { transA, transB });
        const want = Float32Array.from({ length: M * N }, (_, x) => {
          const [i, j] = [Math.floor(x / N), x % N];
          let sum = 0;
          for (let k = 0; k < K; k++) sum += a[transA ? k * M + i : i * K + k] * b[transB ? j * K + k : k * N + j];
          return sum;
        });
        expect(Array.from(cpu.data(c)), `${kind} trial ${trial}: K ${K}, transA ${transA}, transB ${transB}`).toEqual(Array.from(want));
      }
    }
  });

  const geometries: ConvGeometry[] = [
    { batch: 2, inChannels: 2, inHeight: 9, inWidth: 10, outChannels: 3, kernel: 4, stride: 2 },
    { batch: 1, inChannels: 3, inHeight: 6, inWidth: 6, outChannels: 2, kernel: 3, stride: 1 },
    { batch: 1, inChannels: 1, inHeight: 12, inWidth: 12, outChannels: 2, kernel: 8, stride: 4 },
  ];
  for (const g of geometries) {
    it(`conv2d k${g.kernel} s${g.stride}: dx, dW, db`, () => {
      const { outHeight, outWidth } = convOutputSize(g);
      const ySize = g.batch * g.outChannels * outHeight * outWidth;
      const x = cpu.tensor([g.batch * g.inChannels * g.inHeight * g.inWidth], randomArray(rng, g.batch * g.inChannels * g.inHeight * g.inWidth));
      const w = cpu.tensor([g.inChannels * g.kernel * g.kernel, g.outChannels], randomArray(rng, g.inChannels * g.kernel * g.kernel * g.outChannels, 0.5));
      const b = cpu.tensor([g.outChannels], randomArray(rng, g.outChannels));
      const y = cpu.tensor([ySize]);
      const G = randomArray(rng, ySize);
      const loss = () => {
        cpu.conv2d(x, w, b, y, g, 'tanh');
        return dot(G, cpu.data(y));
      };
      loss();
      const dz = cpu.tensor([ySize]);
      cpu.activationBackward(cpu.tensor([ySize], G), y, 'tanh', dz);
      const dx = cpu.tensor([x.size]);
      const dw = cpu.tensor([w.size]);
      const db = cpu.tensor([g.outChannels]);
      cpu.conv2dBackwardInput(dz, w, dx, g);
      cpu.conv2dBackwardWeight(dz, x, dw, g);
      cpu.conv2dBackwardBias(dz, db, g);
      expectClose(cpu.data(dx), numericGradient(x, loss), ATOL, RTOL, 'dx');
      expectClose(cpu.data(dw), numericGradient(w, loss), ATOL, RTOL, 'dW');
      expectClose(cpu.data(db), numericGradient(b, loss), ATOL, RTOL, 'db');
    });
  }

  it('conv2d equals a hand-computed 1-channel example', () => {
    // 3×3 input, 2×2 kernel, stride 1 → 2×2 output
    const g: ConvGeometry = { batch: 1, inChannels: 1, inHeight: 3, inWidth: 3, outChannels: 1, kernel: 2, stride: 1 };
    const y = cpu.tensor([4]);
    cpu.conv2d(cpu.tensor([9], [1, 2, 3, 4, 5, 6, 7, 8, 9]), cpu.tensor([4, 1], [1, 0, 0, -1]), cpu.tensor([1], [0.5]), y, g);
    expect(Array.from(cpu.data(y))).toEqual([1 - 5 + 0.5, 2 - 6 + 0.5, 4 - 8 + 0.5, 5 - 9 + 0.5]);
  });

  it('large products split with the helper thread keep every bit (matmul in each layout, conv and its gradients)', () => {
    const single = new CpuBackend({ threads: false });
    try {
      // Tall, wide and deep products above PARALLEL_MIN_MACS, split by rows or by columns; order-sensitive values.
      for (const [M, N, K] of [
        [2050, 17, 41],
        [9, 1900, 70],
        [66, 62, 600],
      ] as const) {
        for (const [transA, transB] of [
          [false, false],
          [true, false],
          [false, true],
          [true, true],
        ] as const) {
          const a = Float32Array.from({ length: M * K }, () => pick(2 ** 27));
          const b = Float32Array.from({ length: K * N }, () => pick(2 ** 26));
          const outs = [cpu, single].map((be) => {
            const c = be.tensor([M, N]);
            be.matmul(be.tensor(transA ? [K, M] : [M, K], a), be.tensor(transB ? [N, K] : [K, N], b), c, { transA, transB });
            return Array.from(be.data(c));
          });
          const want = Array.from({ length: M * N }, (_, x) => {
            const [i, j] = [Math.floor(x / N), x % N];
            let sum = 0;
            for (let k = 0; k < K; k++) sum += a[transA ? k * M + i : i * K + k] * b[transB ? j * K + k : k * N + j];
            return Math.fround(sum);
          });
          const label = `${M}×${K}·${K}×${N}, transA ${transA}, transB ${transB}`;
          expect(outs[0], label).toEqual(want);
          expect(outs[1], label).toEqual(want);
        }
      }
      const g: ConvGeometry = { batch: 6, inChannels: 8, inHeight: 20, inWidth: 20, outChannels: 16, kernel: 4, stride: 2 };
      const { outHeight, outWidth } = convOutputSize(g);
      const x = randomArray(rng, g.batch * g.inChannels * g.inHeight * g.inWidth);
      const w = randomArray(rng, g.inChannels * g.kernel * g.kernel * g.outChannels);
      const dy = randomArray(rng, g.batch * g.outChannels * outHeight * outWidth);
      const [threaded, one] = [cpu, single].map((be) => {
        const [xt, wt, dyt] = [be.tensor([x.length], x), be.tensor([w.length], w), be.tensor([dy.length], dy)];
        const [y, dx, dw] = [be.tensor([dy.length]), be.tensor([x.length]), be.tensor([w.length])];
        be.conv2d(xt, wt, null, y, g, 'relu');
        be.conv2dBackwardInput(dyt, wt, dx, g);
        be.conv2dBackwardWeight(dyt, xt, dw, g);
        return [y, dx, dw].map((t) => Array.from(be.data(t)));
      });
      expect(threaded).toEqual(one);
      // The split really ran (where the machine has a second core), and the single backend never split.
      expect(cpu.helperThread).toBe(os.availableParallelism() >= 2);
      expect(single.helperThread).toBe(false);
    } finally {
      single.destroy();
    }
  });

  it('conv2d and its gradients are float64 sums in a fixed order, rounded once (im2col path)', () => {
    // Forward and dW keep the direct loops' order (bias, then ascending (c, ky, kx); ascending
    // (n, oy, ox)), pinned bit for bit on order-sensitive values as the matmul is. dX is summed
    // in float64 too: within float32 rounding of the exact sum (float32 accumulation, as the
    // scatter loops did, is off by ~1e-4 here with 48 channels).
    const cases: ConvGeometry[] = [
      { batch: 2, inChannels: 3, inHeight: 13, inWidth: 11, outChannels: 5, kernel: 4, stride: 3 },
      { batch: 3, inChannels: 1, inHeight: 20, inWidth: 20, outChannels: 6, kernel: 8, stride: 4 },
      { batch: 2, inChannels: 48, inHeight: 7, inWidth: 7, outChannels: 48, kernel: 3, stride: 1 },
    ];
    for (const g of cases) {
      const { outHeight: OH, outWidth: OW } = convOutputSize(g);
      const { batch: NB, inChannels: C, inHeight: H, inWidth: W, outChannels: O, kernel: KS, stride: S } = g;
      const xi = (n: number, c: number, oy: number, ox: number, ky: number, kx: number) => ((n * C + c) * H + oy * S + ky) * W + ox * S + kx;
      const wi = (c: number, ky: number, kx: number, o: number) => ((c * KS + ky) * KS + kx) * O + o;
      const yi = (n: number, o: number, oy: number, ox: number) => ((n * O + o) * OH + oy) * OW + ox;
      const X = Float32Array.from({ length: NB * C * H * W }, () => pick(2 ** 27));
      const Wt = Float32Array.from({ length: C * KS * KS * O }, () => pick(2 ** 26));
      const bias = Float32Array.from({ length: O }, () => pick(2 ** 20));
      const DY = Float32Array.from({ length: NB * O * OH * OW }, () => pick(2 ** 26));
      const y = cpu.tensor([DY.length]);
      const dw = cpu.tensor([Wt.length]);
      cpu.conv2d(cpu.tensor([X.length], X), cpu.tensor([Wt.length], Wt), cpu.tensor([O], bias), y, g);
      cpu.conv2dBackwardWeight(cpu.tensor([DY.length], DY), cpu.tensor([X.length], X), dw, g);
      const wantY = new Float32Array(DY.length);
      const wantDw = new Float32Array(Wt.length);
      for (let n = 0; n < NB; n++)
        for (let o = 0; o < O; o++)
          for (let oy = 0; oy < OH; oy++)
            for (let ox = 0; ox < OW; ox++) {
              let s = bias[o];
              for (let c = 0; c < C; c++)
                for (let ky = 0; ky < KS; ky++) for (let kx = 0; kx < KS; kx++) s += X[xi(n, c, oy, ox, ky, kx)] * Wt[wi(c, ky, kx, o)];
              wantY[yi(n, o, oy, ox)] = s;
            }
      for (let c = 0; c < C; c++)
        for (let ky = 0; ky < KS; ky++)
          for (let kx = 0; kx < KS; kx++)
            for (let o = 0; o < O; o++) {
              let s = 0;
              for (let n = 0; n < NB; n++)
                for (let oy = 0; oy < OH; oy++) for (let ox = 0; ox < OW; ox++) s += DY[yi(n, o, oy, ox)] * X[xi(n, c, oy, ox, ky, kx)];
              wantDw[wi(c, ky, kx, o)] = s;
            }
      expect(Array.from(cpu.data(y)), `forward ${JSON.stringify(g)}`).toEqual(Array.from(wantY));
      expect(Array.from(cpu.data(dw)), `dW ${JSON.stringify(g)}`).toEqual(Array.from(wantDw));

      const smallW = randomArray(rng, Wt.length);
      const smallDy = randomArray(rng, DY.length);
      const exact = new Float64Array(X.length);
      for (let n = 0; n < NB; n++)
        for (let o = 0; o < O; o++)
          for (let oy = 0; oy < OH; oy++)
            for (let ox = 0; ox < OW; ox++)
              for (let c = 0; c < C; c++)
                for (let ky = 0; ky < KS; ky++)
                  for (let kx = 0; kx < KS; kx++) exact[xi(n, c, oy, ox, ky, kx)] += smallDy[yi(n, o, oy, ox)] * smallW[wi(c, ky, kx, o)];
      const dx = cpu.tensor([X.length]);
      cpu.conv2dBackwardInput(cpu.tensor([DY.length], smallDy), cpu.tensor([Wt.length], smallW), dx, g);
      const got = cpu.data(dx);
      for (let i = 0; i < X.length; i++) {
        const err = Math.abs(got[i] - exact[i]);
        if (err > 2 ** -23 * Math.abs(exact[i]) + 1e-12) expect.fail(`dX[${i}] of ${JSON.stringify(g)}: ${got[i]} vs exact ${exact[i]}`);
      }
    }
  });

  it('spatialSoftmax: the expected coordinates by definition, a peaked map reports its peak, and the backward pass matches finite differences', () => {
    const g = { batch: 2, channels: 3, height: 5, width: 7 };
    const x = cpu.tensor([2, 3, 5, 7], randomArray(rng, 2 * 3 * 35, 2));
    const out = cpu.tensor([2, 3, 2]);
    cpu.spatialSoftmax(x, out, g);
    const X = cpu.data(x);
    const O = cpu.data(out);
    for (let m = 0; m < 6; m++) {
      // Straight from the definition: weights exp(x)/Σexp(x), coordinates −1 … 1 across the map.
      let z = 0;
      let u = 0;
      let v = 0;
      for (let i = 0; i < 5; i++)
        for (let j = 0; j < 7; j++) {
          const e = Math.exp(X[m * 35 + i * 7 + j]);
          z += e;
          u += e * (j / 3 - 1);
          v += e * (i / 2 - 1);
        }
      expect(O[2 * m]).toBeCloseTo(u / z, 6);
      expect(O[2 * m + 1]).toBeCloseTo(v / z, 6);
    }
    const peaked = cpu.tensor([1, 1, 5, 7]);
    cpu.write(peaked, [40], 1 * 7 + 5); // row 1, column 5
    const at = cpu.tensor([1, 1, 2]);
    cpu.spatialSoftmax(peaked, at, { batch: 1, channels: 1, height: 5, width: 7 });
    expectClose(cpu.data(at), [5 / 3 - 1, 1 / 2 - 1], 1e-6, 0, 'peak position');

    const G = randomArray(rng, 12);
    const dx = cpu.tensor([2, 3, 5, 7]);
    cpu.spatialSoftmaxBackward(x, cpu.tensor([2, 3, 2], G), dx, g);
    const numeric = numericGradient(x, () => {
      cpu.spatialSoftmax(x, out, g);
      return dot(cpu.data(out), G);
    });
    expectClose(cpu.data(dx), numeric, 2e-3, 1e-2, 'spatialSoftmax dx');
    expect(() => cpu.spatialSoftmax(x, cpu.tensor([2, 3]), g)).toThrow(/spatialSoftmax keypoints/);
  });

  it('logSoftmax and entropy equal their definitions', () => {
    const z = cpu.tensor([2, 3], [1, 2, 3, -1, 0, 5]);
    const ls = cpu.tensor([2, 3]);
    const h = cpu.tensor([2]);
    cpu.logSoftmax(z, ls);
    cpu.entropy(z, h);
    for (let r = 0; r < 2; r++) {
      const row = Array.from(cpu.data(z).subarray(r * 3, r * 3 + 3));
      const norm = Math.log(row.reduce((s, v) => s + Math.exp(v), 0));
      const lp = row.map((v) => v - norm);
      expectClose(cpu.data(ls).subarray(r * 3, r * 3 + 3), lp, 1e-6, 1e-6, 'log-softmax');
      expectClose([cpu.data(h)[r]], [-lp.reduce((s, l) => s + Math.exp(l) * l, 0)], 1e-6, 1e-6, 'entropy');
    }
  });

  it('ppoPolicyLoss: d(pg − c·H)/dlogits matches finite differences on both clip sides', () => {
    const [rows, cols] = [24, 4];
    const eps = { epsLow: 0.2, epsHigh: 0.28, entCoef: 0.05 };
    const logits = cpu.tensor([rows, cols], randomArray(rng, rows * cols, 1.5));
    const batch = new Float32Array(rows * PPO_BATCH_WIDTH);
    const lsm = cpu.tensor([rows, cols]);
    cpu.logSoftmax(logits, lsm);
    for (let i = 0; i < rows; i++) {
      const action = i % cols;
      // Old log-probs put the ratio well inside, below and above the trust region, away from the kinks.
      const ratio = [0.5, 0.95, 1.1, 1.6][i % 4];
      const b = i * PPO_BATCH_WIDTH;
      batch[b] = action;
      batch[b + 1] = cpu.data(lsm)[i * cols + action] - Math.log(ratio);
      batch[b + 2] = (i % 8 < 4 ? 1 : -1) * (0.5 + rng.uniform());
      batch[b + 5] = 1 / rows;
    }
    const B = cpu.tensor([rows, PPO_BATCH_WIDTH], batch);
    const stats = cpu.tensor([rows, POLICY_STATS_WIDTH]);
    const dLogits = cpu.tensor([rows, cols]);
    const loss = () => {
      cpu.ppoPolicyLoss(logits, B, cpu.tensor([rows, cols]), stats, eps);
      const s = cpu.data(stats);
      let total = 0;
      for (let i = 0; i < rows; i++) total += s[i * POLICY_STATS_WIDTH + PolicyStat.loss] - eps.entCoef * s[i * POLICY_STATS_WIDTH + PolicyStat.entropy];
      return total;
    };
    cpu.ppoPolicyLoss(logits, B, dLogits, stats, eps);
    const active = cpu.data(stats).filter((_, i) => i % POLICY_STATS_WIDTH === PolicyStat.activeLow || i % POLICY_STATS_WIDTH === PolicyStat.activeHigh);
    expect(active.some((v) => v > 0)).toBe(true); // some rows really are clipped
    expectClose(cpu.data(dLogits), numericGradient(logits, loss, 1e-3), 1e-4, 1e-2, 'dlogits');
  });

  it('ppoValueLoss: clipped and unclipped gradients match finite differences', () => {
    const rows = 16;
    const batch = new Float32Array(rows * PPO_BATCH_WIDTH);
    const v = new Float32Array(rows);
    for (let i = 0; i < rows; i++) {
      const b = i * PPO_BATCH_WIDTH;
      batch[b + 3] = rng.normal() * 2; // return
      batch[b + 4] = batch[b + 3] + [-1, 1][i % 2] * (0.5 + rng.uniform()); // old value
      v[i] = batch[b + 4] + [-0.6, -0.1, 0.1, 0.6][Math.floor(i / 2) % 4]; // inside and outside the ±0.2 band
      batch[b + 5] = 1 / rows;
    }
    const B = cpu.tensor([rows, PPO_BATCH_WIDTH], batch);
    for (const clipCoef of [0.2, null]) {
      const values = cpu.tensor([rows, 1], v);
      const stats = cpu.tensor([rows, 1]);
      const dv = cpu.tensor([rows, 1]);
      const p = { clipCoef, vfCoef: 0.5 };
      const loss = () => {
        cpu.ppoValueLoss(values, B, cpu.tensor([rows, 1]), stats, p);
        return 0.5 * cpu.data(stats).reduce((s, x) => s + x, 0);
      };
      cpu.ppoValueLoss(values, B, dv, stats, p);
      expectClose(cpu.data(dv), numericGradient(values, loss), 1e-4, 1e-2, `dvalue (clip ${clipCoef})`);
      if (clipCoef !== null) expect(cpu.data(dv).some((g) => g === 0)).toBe(true); // some rows clipped
    }
  });

  it('sampleCategorical frequencies follow softmax(logits)', () => {
    const rows = 4000;
    const probs = [0.1, 0.2, 0.3, 0.4];
    const z = new Float32Array(rows * 4);
    for (let i = 0; i < rows; i++) probs.forEach((p, j) => (z[i * 4 + j] = Math.log(p) + 3));
    const a = cpu.tensor([rows]);
    const lp = cpu.tensor([rows]);
    cpu.sampleCategorical(cpu.tensor([rows, 4], z), 5, 0, a, lp);
    const counts = [0, 0, 0, 0];
    for (const x of cpu.data(a)) counts[x]++;
    // Binomial standard deviation at n = 4000 is ≤ 0.008; allow 4σ.
    counts.forEach((c, j) => expect(Math.abs(c / rows - probs[j])).toBeLessThan(0.032));
    cpu.data(a).forEach((x, i) => expect(cpu.data(lp)[i]).toBeCloseTo(Math.log(probs[x]), 5));
    // Same (seed, counter) → same draws; a new counter → different draws.
    const a2 = cpu.tensor([rows]);
    cpu.sampleCategorical(cpu.tensor([rows, 4], z), 5, 0, a2, cpu.tensor([rows]));
    expect(Array.from(cpu.data(a2))).toEqual(Array.from(cpu.data(a)));
    cpu.sampleCategorical(cpu.tensor([rows, 4], z), 5, 1, a2, cpu.tensor([rows]));
    expect(Array.from(cpu.data(a2))).not.toEqual(Array.from(cpu.data(a)));
  });

  it('Adam with global-norm clipping equals the PyTorch formulas', () => {
    const n = 5;
    const p0 = randomArray(rng, n);
    const grads = [randomArray(rng, n, 2), randomArray(rng, n, 0.01)];
    const S = cpu.tensor([OPT_STATE_WIDTH]);
    cpu.write(S, [0.1, 0.9, 0.999, 1e-8, 1.0], 0);
    const P = cpu.tensor([n], p0);
    const M = cpu.tensor([n]);
    const V = cpu.tensor([n]);
    // Reference in float64.
    const p = Array.from(p0);
    const m = new Array(n).fill(0);
    const v = new Array(n).fill(0);
    grads.forEach((g, step) => {
      const G = cpu.tensor([n], g);
      cpu.sumSquares(G, makeView(S, OptState.gradSumSq, [1]));
      cpu.adamPrepare(S);
      cpu.adamUpdate(P, G, M, V, S);
      const norm = Math.sqrt(Array.from(g).reduce((s, x) => s + x * x, 0));
      const scale = Math.min(1, 1.0 / (norm + 1e-6));
      const t = step + 1;
      for (let i = 0; i < n; i++) {
        const gi = g[i] * scale;
        m[i] = 0.9 * m[i] + 0.1 * gi;
        v[i] = 0.999 * v[i] + 0.001 * gi * gi;
        p[i] -= (0.1 * (m[i] / (1 - 0.9 ** t))) / (Math.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8);
      }
      expect(cpu.data(S)[OptState.step]).toBe(t);
      expect(cpu.data(S)[OptState.gradNorm]).toBeCloseTo(norm, 4);
    });
    expect(grads[0].reduce((s, x) => s + x * x, 0)).toBeGreaterThan(1); // the first step was clipped
    expectClose(cpu.data(P), p, 1e-6, 1e-5, 'params');
  });

  it('gatherRows and sumRows', () => {
    const src = cpu.tensor([3, 2], [1, 2, 3, 4, 5, 6]);
    const out = cpu.tensor([4, 2]);
    cpu.gatherRows(src, cpu.tensor([4], [2, 0, 2, 1]), out);
    expect(Array.from(cpu.data(out))).toEqual([5, 6, 1, 2, 5, 6, 3, 4]);
    const sums = cpu.tensor([2], [10, 20]);
    cpu.sumRows(src, sums, true);
    expect(Array.from(cpu.data(sums))).toEqual([19, 32]);
    expect(() => cpu.gatherRows(src, cpu.tensor([1], [3]), cpu.tensor([1, 2]))).toThrow(/out of range/);
  });
});
