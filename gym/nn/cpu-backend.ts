import {
  MASKED_LOGIT,
  OptState,
  POLICY_STATS_WIDTH,
  PPO_BATCH_WIDTH,
  PolicyStat,
  PpoBatchColumn,
  assertSameSize,
  convOutputSize,
  keypointCoordinate,
  type Activation,
  type Backend,
  type ConvGeometry,
  type MapGeometry,
  type MatmulOptions,
  type PolicyLossParams,
  type ValueLossParams,
} from './backend';
import { hashUniform } from './hash-rng';
import { channelsLast, col2imAdd, convPatchShape, im2col } from './cpu-conv';
import { gemmInto, gemmLayout, type GemmLayout } from './cpu-gemm';
import { GemmThreads, PARALLEL_MIN_MACS } from './cpu-threads';
import { checkAdam, checkConv, checkGather, checkPolicyLoss, checkSample, checkSpatialSoftmax, checkValueLoss, matmulDims } from './shape-checks';
import { asMatrix, newStorageId, shapeSize, type Tensor, type TensorStorage } from './tensor';

interface CpuStorage extends TensorStorage {
  data: Float32Array;
}

/**
 * The reference backend: plain TypeScript over Float32Array, written for clarity. Every
 * WebGPU kernel is tested against it, and it is the fallback when no adapter exists.
 * Sums accumulate in float64 and are stored as float32.
 */
export class CpuBackend implements Backend {
  readonly kind = 'cpu' as const;
  readonly info = 'cpu (TypeScript reference)';
  private readonly owner = Symbol('cpu-backend');
  /** The float64 sums of the last matmul, reused: a minibatch's products are megabytes each. */
  private sumsBuffer: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private patchBuffer: Float32Array<ArrayBufferLike> = new Float32Array(0);
  private gradRowsBuffer: Float32Array<ArrayBufferLike> = new Float32Array(0);
  private pixelSumsBuffer: Float64Array<ArrayBufferLike> = new Float64Array(0);
  /** Shared copies of a product's operands for the helper thread (tensors live in ordinary memory). */
  private sharedA: Float32Array<ArrayBufferLike> = new Float32Array(0);
  private sharedB: Float32Array<ArrayBufferLike> = new Float32Array(0);
  /** The thread's helper for large products (GemmThreads.shared): undefined until the first one, null where there is none. */
  private threads: GemmThreads | null | undefined;
  /** Whether scratch goes in shared memory, which the helper thread can read and write. */
  private readonly sharedScratch: boolean;

  /** threads: false keeps every product on the calling thread (same bits either way). */
  constructor(opts: { threads?: boolean } = {}) {
    this.sharedScratch = opts.threads !== false && typeof SharedArrayBuffer !== 'undefined';
    if (opts.threads === false) this.threads = null;
  }

  tensor(shape: readonly number[], data?: ArrayLike<number>): Tensor {
    const size = shapeSize(shape);
    const storage: CpuStorage = { id: newStorageId(), length: size, owner: this.owner, data: new Float32Array(size) };
    if (data) {
      if (data.length !== size) throw new Error(`tensor data: expected ${size} elements, got ${data.length}`);
      storage.data.set(data);
    }
    return { shape: [...shape], size, offset: 0, storage };
  }

  /** The live Float32Array behind a tensor (a view, no copy). */
  data(t: Tensor): Float32Array {
    const s = t.storage as CpuStorage;
    if (s.owner !== this.owner) throw new Error('tensor belongs to another backend');
    if (s.data.length === 0 && s.length > 0) throw new Error('tensor was disposed');
    return s.data.subarray(t.offset, t.offset + t.size);
  }

  write(t: Tensor, data: ArrayLike<number>, offset = 0): void {
    if (offset + data.length > t.size) throw new Error(`write of ${data.length} at ${offset} overflows ${t.size} elements`);
    this.data(t).set(data, offset);
  }

  async read(t: Tensor): Promise<Float32Array> {
    return this.data(t).slice();
  }

  async readMany(ts: readonly Tensor[]): Promise<Float32Array[]> {
    return ts.map((t) => this.data(t).slice());
  }

  flush(): void {}

  dispose(t: Tensor): void {
    (t.storage as CpuStorage).data = new Float32Array(0);
  }

  destroy(): void {}

  fill(t: Tensor, value: number): void {
    this.data(t).fill(value);
  }

  copy(src: Tensor, dst: Tensor): void {
    assertSameSize('copy', dst, src.size);
    this.data(dst).set(this.data(src));
  }

  /** Whether large products have been split with a helper thread (false until the first, and where there is none). */
  get helperThread(): boolean {
    return this.threads instanceof GemmThreads;
  }

  /** Scratch the helper thread can read: shared memory where threads are possible. */
  private scratch32(size: number): Float32Array<ArrayBufferLike> {
    return this.sharedScratch ? new Float32Array(new SharedArrayBuffer(size * 4)) : new Float32Array(size);
  }

  /** X itself when the helper can read it, else a copy in the shared operand buffer `slot`. */
  private sharedOperand(slot: 'A' | 'B', X: Float32Array): Float32Array<ArrayBufferLike> {
    if (X.buffer instanceof SharedArrayBuffer) return X;
    let buf = slot === 'A' ? this.sharedA : this.sharedB;
    if (buf.length < X.length) {
      buf = new Float32Array(new SharedArrayBuffer(X.length * 4));
      if (slot === 'A') this.sharedA = buf;
      else this.sharedB = buf;
    }
    const view = buf.subarray(0, X.length);
    view.set(X);
    return view;
  }

  /**
   * sums += op(A)·op(B). Large products are split with the helper thread (`sums` is always the
   * shared sums buffer there); the bits are those of one thread.
   */
  private product(sums: Float64Array, A: Float32Array, B: Float32Array, M: number, N: number, K: number, l: GemmLayout): void {
    if (this.threads === undefined && M * N * K >= PARALLEL_MIN_MACS) this.threads = GemmThreads.shared();
    if (!this.threads || M * N * K < PARALLEL_MIN_MACS || !(sums.buffer instanceof SharedArrayBuffer)) {
      gemmInto(sums, A, B, M, N, K, l);
      return;
    }
    this.threads.gemm(sums, this.sharedOperand('A', A), this.sharedOperand('B', B), M, N, K, l);
  }

  /** A convolution's window rows (im2col), reused across calls. */
  private patches(size: number): Float32Array {
    if (this.patchBuffer.length < size) this.patchBuffer = this.scratch32(size);
    return this.patchBuffer.subarray(0, size);
  }

  /** A convolution's output gradient in position-major order, reused across calls. */
  private gradRows(size: number): Float32Array {
    if (this.gradRowsBuffer.length < size) this.gradRowsBuffer = this.scratch32(size);
    return this.gradRowsBuffer.subarray(0, size);
  }

  /** Zeros for a convolution's input-gradient sums, reused across calls. */
  private pixelSums(size: number): Float64Array {
    if (this.pixelSumsBuffer.length < size) this.pixelSumsBuffer = new Float64Array(size);
    const sums = this.pixelSumsBuffer.subarray(0, size);
    sums.fill(0);
    return sums;
  }

  /** M·N zeros in the reused buffer (grown when a larger product comes). */
  private sums(size: number): Float64Array {
    if (this.sumsBuffer.length < size) this.sumsBuffer = this.sharedScratch ? new Float64Array(new SharedArrayBuffer(size * 8)) : new Float64Array(size);
    const sums = this.sumsBuffer.subarray(0, size);
    sums.fill(0);
    return sums;
  }

  matmul(a: Tensor, b: Tensor, c: Tensor, opts: MatmulOptions = {}): void {
    const { M, N, K } = matmulDims(a, b, c, opts);
    const A = this.data(a);
    const B = this.data(b);
    const C = this.data(c);
    const bias = opts.bias ? this.data(opts.bias) : null;
    if (bias && bias.length !== N) throw new Error(`matmul bias: expected ${N} elements, got ${bias.length}`);
    const sums = this.sums(M * N);
    this.product(sums, A, B, M, N, K, gemmLayout(M, N, K, opts.transA === true, opts.transB === true));
    if (opts.accumulate) {
      for (let x = 0; x < M * N; x++) C[x] += sums[x];
      return;
    }
    if (!bias) C.set(sums);
    else
      for (let o = 0; o < M * N; o += N) {
        for (let j = 0; j < N; j++) C[o + j] = sums[o + j] + bias[j];
      }
    activateInPlace(C, opts.activation ?? 'none');
  }

  activationBackward(dy: Tensor, y: Tensor, activation: Activation, dx: Tensor): void {
    assertSameSize('activationBackward y', y, dy.size);
    assertSameSize('activationBackward dx', dx, dy.size);
    const DY = this.data(dy);
    const Y = this.data(y);
    const DX = this.data(dx);
    for (let i = 0; i < DY.length; i++) DX[i] = DY[i] * activationDerivative(Y[i], activation);
  }

  sumRows(x: Tensor, out: Tensor, accumulate = false): void {
    const { rows, cols } = asMatrix(x);
    assertSameSize('sumRows out', out, cols);
    const X = this.data(x);
    const O = this.data(out);
    for (let j = 0; j < cols; j++) {
      let s = 0;
      for (let i = 0; i < rows; i++) s += X[i * cols + j];
      O[j] = accumulate ? O[j] + s : s;
    }
  }

  conv2d(x: Tensor, w: Tensor, bias: Tensor | null, out: Tensor, g: ConvGeometry, activation: Activation = 'none'): void {
    checkConv(g, x, w, out);
    const O = g.outChannels;
    const { rows, cols, plane } = convPatchShape(g);
    const patches = this.patches(rows * cols);
    im2col(this.data(x), g, patches);
    const sums = this.sums(rows * O);
    // Each sum starts at the bias, as the direct loops did, so the bits stay theirs.
    if (bias) {
      const B = this.data(bias);
      for (let r = 0; r < rows * O; r += O) for (let o = 0; o < O; o++) sums[r + o] = B[o];
    }
    this.product(sums, patches, this.data(w), rows, O, cols, gemmLayout(rows, O, cols, false, false));
    const Y = this.data(out);
    for (let n = 0; n < g.batch; n++)
      for (let o = 0; o < O; o++) {
        const dst = (n * O + o) * plane;
        const src = n * plane * O + o;
        for (let p = 0; p < plane; p++) Y[dst + p] = activate(sums[src + p * O], activation);
      }
  }

  conv2dBackwardInput(dy: Tensor, w: Tensor, dx: Tensor, g: ConvGeometry): void {
    checkConv(g, dx, w, dy);
    const O = g.outChannels;
    const { rows, cols, plane } = convPatchShape(g);
    const dyRows = this.gradRows(rows * O);
    channelsLast(this.data(dy), g.batch, O, plane, dyRows);
    // dPatches = dY·Wᵀ, then each window element flows back to the pixel it was read from.
    const dPatches = this.sums(rows * cols);
    this.product(dPatches, dyRows, this.data(w), rows, cols, O, gemmLayout(rows, cols, O, false, true));
    const DX = this.data(dx);
    const dxSums = this.pixelSums(DX.length);
    col2imAdd(dPatches, g, dxSums);
    DX.set(dxSums);
  }

  conv2dBackwardWeight(dy: Tensor, x: Tensor, dw: Tensor, g: ConvGeometry): void {
    checkConv(g, x, dw, dy);
    const O = g.outChannels;
    const { rows, cols, plane } = convPatchShape(g);
    const patches = this.patches(rows * cols);
    im2col(this.data(x), g, patches);
    const dyRows = this.gradRows(rows * O);
    channelsLast(this.data(dy), g.batch, O, plane, dyRows);
    // dW = patchesᵀ·dY, summed over positions in ascending (n, oy, ox).
    const sums = this.sums(cols * O);
    this.product(sums, patches, dyRows, cols, O, rows, gemmLayout(cols, O, rows, true, false));
    this.data(dw).set(sums);
  }

  conv2dBackwardBias(dy: Tensor, db: Tensor, g: ConvGeometry): void {
    const { outHeight: OH, outWidth: OW } = convOutputSize(g);
    assertSameSize('conv2dBackwardBias dy', dy, g.batch * g.outChannels * OH * OW);
    assertSameSize('conv2dBackwardBias db', db, g.outChannels);
    const DY = this.data(dy);
    const DB = this.data(db);
    const plane = OH * OW;
    for (let o = 0; o < g.outChannels; o++) {
      let s = 0;
      for (let n = 0; n < g.batch; n++) for (let p = 0; p < plane; p++) s += DY[(n * g.outChannels + o) * plane + p];
      DB[o] = s;
    }
  }

  spatialSoftmax(x: Tensor, out: Tensor, g: MapGeometry): void {
    const { maps, plane } = checkSpatialSoftmax(g, x, out);
    const X = this.data(x);
    const O = this.data(out);
    for (let m = 0; m < maps; m++) {
      const { meanU, meanV } = softArgmax(X, m * plane, g.height, g.width);
      O[2 * m] = meanU;
      O[2 * m + 1] = meanV;
    }
  }

  spatialSoftmaxBackward(x: Tensor, dy: Tensor, dx: Tensor, g: MapGeometry): void {
    const { maps, plane } = checkSpatialSoftmax(g, x, dy, dx);
    const X = this.data(x);
    const DY = this.data(dy);
    const DX = this.data(dx);
    for (let m = 0; m < maps; m++) {
      const base = m * plane;
      const { max, sum, meanU, meanV } = softArgmax(X, base, g.height, g.width);
      const dU = DY[2 * m];
      const dV = DY[2 * m + 1];
      for (let i = 0; i < g.height; i++) {
        const v = keypointCoordinate(i, g.height) - meanV;
        for (let j = 0; j < g.width; j++) {
          const k = base + i * g.width + j;
          const p = Math.exp(X[k] - max) / sum;
          DX[k] = p * ((keypointCoordinate(j, g.width) - meanU) * dU + v * dV);
        }
      }
    }
  }

  maskLogits(logits: Tensor, mask: Tensor): void {
    assertSameSize('maskLogits mask', mask, logits.size);
    const Z = this.data(logits);
    const M = this.data(mask);
    for (let i = 0; i < Z.length; i++) if (M[i] === 0) Z[i] = MASKED_LOGIT;
  }

  logSoftmax(logits: Tensor, out: Tensor): void {
    const { rows, cols } = asMatrix(logits);
    assertSameSize('logSoftmax out', out, logits.size);
    const Z = this.data(logits);
    const O = this.data(out);
    for (let i = 0; i < rows; i++) {
      const lse = logSumExp(Z, i * cols, cols);
      for (let j = 0; j < cols; j++) O[i * cols + j] = Z[i * cols + j] - lse;
    }
  }

  entropy(logits: Tensor, out: Tensor): void {
    const { rows, cols } = asMatrix(logits);
    assertSameSize('entropy out', out, rows);
    const Z = this.data(logits);
    const O = this.data(out);
    for (let i = 0; i < rows; i++) O[i] = rowEntropy(Z, i * cols, cols);
  }

  sampleCategorical(logits: Tensor, seed: number, counter: number, actions: Tensor, logProbs: Tensor): void {
    const { rows, cols } = checkSample(logits, actions, logProbs);
    const Z = this.data(logits);
    const A = this.data(actions);
    const L = this.data(logProbs);
    for (let i = 0; i < rows; i++) {
      const lse = logSumExp(Z, i * cols, cols);
      const u = hashUniform(seed, counter, i);
      // Rounding can leave the total CDF a hair below u: then the last action of nonzero probability (never a masked one).
      let action = cols - 1;
      let cdf = 0;
      for (let j = 0; j < cols; j++) {
        const p = Math.exp(Z[i * cols + j] - lse);
        if (p > 0) action = j;
        cdf += p;
        if (u < cdf) {
          action = j;
          break;
        }
      }
      A[i] = action;
      L[i] = Z[i * cols + action] - lse;
    }
  }

  gatherRows(src: Tensor, indices: Tensor, out: Tensor): void {
    const { srcRows, cols } = checkGather(src, indices, out);
    const S = this.data(src);
    const I = this.data(indices);
    const O = this.data(out);
    for (let r = 0; r < I.length; r++) {
      const from = I[r];
      if (!Number.isInteger(from) || from < 0 || from >= srcRows) throw new Error(`gatherRows: index ${from} out of range [0, ${srcRows})`);
      O.set(S.subarray(from * cols, from * cols + cols), r * cols);
    }
  }

  ppoPolicyLoss(logits: Tensor, batch: Tensor, dLogits: Tensor, stats: Tensor, p: PolicyLossParams): void {
    const { rows, cols } = checkPolicyLoss(logits, batch, dLogits, stats);
    const Z = this.data(logits);
    const Bt = this.data(batch);
    const D = this.data(dLogits);
    const St = this.data(stats);
    for (let i = 0; i < rows; i++) {
      const b = i * PPO_BATCH_WIDTH;
      const action = Bt[b + PpoBatchColumn.action];
      const adv = Bt[b + PpoBatchColumn.advantage];
      const w = Bt[b + PpoBatchColumn.weight];
      const lse = logSumExp(Z, i * cols, cols);
      const logRatio = Z[i * cols + action] - lse - Bt[b + PpoBatchColumn.oldLogProb];
      const ratio = Math.exp(logRatio);
      const clipped = Math.min(Math.max(ratio, 1 - p.epsLow), 1 + p.epsHigh);
      const unclippedLoss = -adv * ratio;
      const clippedLoss = -adv * clipped;
      // max(−A·r, −A·clip(r)): the gradient flows only through the unclipped term.
      const clipActive = clippedLoss > unclippedLoss;
      const dLossdRatio = clipActive ? 0 : -adv;
      const H = rowEntropy(Z, i * cols, cols);
      for (let j = 0; j < cols; j++) {
        const logp = Z[i * cols + j] - lse;
        const prob = Math.exp(logp);
        const dRatio = ratio * ((j === action ? 1 : 0) - prob); // d ratio / d z_j
        const dEntropy = -prob * (logp + H); // d H / d z_j
        D[i * cols + j] = w * (dLossdRatio * dRatio - p.entCoef * dEntropy);
      }
      const s = i * POLICY_STATS_WIDTH;
      St[s + PolicyStat.loss] = w * Math.max(unclippedLoss, clippedLoss);
      St[s + PolicyStat.entropy] = w * H;
      St[s + PolicyStat.approxKl] = w * (ratio - 1 - logRatio);
      St[s + PolicyStat.clipLow] = w * (ratio < 1 - p.epsLow ? 1 : 0);
      St[s + PolicyStat.clipHigh] = w * (ratio > 1 + p.epsHigh ? 1 : 0);
      St[s + PolicyStat.activeLow] = w * (clipActive && adv < 0 ? 1 : 0);
      St[s + PolicyStat.activeHigh] = w * (clipActive && adv > 0 ? 1 : 0);
    }
  }

  ppoValueLoss(values: Tensor, batch: Tensor, dValues: Tensor, stats: Tensor, p: ValueLossParams): void {
    const rows = checkValueLoss(values, batch, dValues, stats);
    const V = this.data(values);
    const Bt = this.data(batch);
    const D = this.data(dValues);
    const St = this.data(stats);
    for (let i = 0; i < rows; i++) {
      const b = i * PPO_BATCH_WIDTH;
      const ret = Bt[b + PpoBatchColumn.return];
      const w = Bt[b + PpoBatchColumn.weight];
      const v = V[i];
      const unclipped = (v - ret) ** 2;
      let loss = unclipped;
      let grad = v - ret; // d(0.5·(v−R)²)/dv
      if (p.clipCoef !== null) {
        const oldV = Bt[b + PpoBatchColumn.oldValue];
        const delta = v - oldV;
        const vClipped = oldV + Math.min(Math.max(delta, -p.clipCoef), p.clipCoef);
        const clipped = (vClipped - ret) ** 2;
        if (clipped > unclipped) {
          loss = clipped;
          grad = Math.abs(delta) < p.clipCoef ? vClipped - ret : 0;
        }
      }
      St[i] = w * 0.5 * loss;
      D[i] = w * p.vfCoef * grad;
    }
  }

  sumSquares(x: Tensor, out: Tensor, accumulate = false): void {
    const X = this.data(x);
    const O = this.data(out);
    let s = 0;
    for (let i = 0; i < X.length; i++) s += X[i] * X[i];
    O[0] = accumulate ? O[0] + s : s;
  }

  adamPrepare(state: Tensor): void {
    const S = this.data(state);
    S[OptState.step] += 1;
    const norm = Math.sqrt(S[OptState.gradSumSq]);
    S[OptState.gradNorm] = norm;
    S[OptState.clipScale] = clipScale(norm, S[OptState.maxGradNorm]);
  }

  adamUpdate(params: Tensor, grads: Tensor, m: Tensor, v: Tensor, state: Tensor): void {
    checkAdam(params, grads, m, v);
    const P = this.data(params);
    const G = this.data(grads);
    const Mo = this.data(m);
    const Vo = this.data(v);
    const S = this.data(state);
    const lr = S[OptState.lr];
    const b1 = S[OptState.beta1];
    const b2 = S[OptState.beta2];
    const eps = S[OptState.eps];
    const t = S[OptState.step];
    const scale = S[OptState.clipScale];
    // PyTorch's formulation: p −= (lr / (1−β1^t)) · m / (sqrt(v) / sqrt(1−β2^t) + eps).
    const stepSize = lr / (1 - b1 ** t);
    const sqrtBias2 = Math.sqrt(1 - b2 ** t);
    for (let i = 0; i < P.length; i++) {
      const g = G[i] * scale;
      Mo[i] = b1 * Mo[i] + (1 - b1) * g;
      Vo[i] = b2 * Vo[i] + (1 - b2) * g * g;
      P[i] -= (stepSize * Mo[i]) / (Math.sqrt(Vo[i]) / sqrtBias2 + eps);
    }
  }
}

/** torch.nn.utils.clip_grad_norm_: scale by maxNorm/(norm+1e-6) when that is below 1. */
export function clipScale(norm: number, maxGradNorm: number): number {
  if (!(maxGradNorm > 0)) return 1;
  const coef = maxGradNorm / (norm + 1e-6);
  return Math.min(coef, 1);
}

export function activateInPlace(x: Float32Array, act: Activation): void {
  if (act === 'relu') for (let i = 0; i < x.length; i++) x[i] = Math.max(x[i], 0);
  else if (act === 'tanh') for (let i = 0; i < x.length; i++) x[i] = Math.tanh(x[i]);
}

export function activate(x: number, act: Activation): number {
  if (act === 'relu') return Math.max(x, 0);
  if (act === 'tanh') return Math.tanh(x);
  return x;
}

/** The derivative written in terms of the activation's output y. */
export function activationDerivative(y: number, act: Activation): number {
  if (act === 'relu') return y > 0 ? 1 : 0;
  if (act === 'tanh') return 1 - y * y;
  return 1;
}

function logSumExp(z: Float32Array, start: number, n: number): number {
  let max = -Infinity;
  for (let j = 0; j < n; j++) max = Math.max(max, z[start + j]);
  let s = 0;
  for (let j = 0; j < n; j++) s += Math.exp(z[start + j] - max);
  return max + Math.log(s);
}

function rowEntropy(z: Float32Array, start: number, n: number): number {
  const lse = logSumExp(z, start, n);
  let h = 0;
  for (let j = 0; j < n; j++) {
    const logp = z[start + j] - lse;
    h -= Math.exp(logp) * logp;
  }
  return h;
}

/** Softmax statistics of one [height, width] map starting at `base`, in float64: its max, Σ exp(x − max), and the expected coordinates. */
function softArgmax(X: Float32Array, base: number, height: number, width: number): { max: number; sum: number; meanU: number; meanV: number } {
  let max = Number.NEGATIVE_INFINITY;
  for (let k = base; k < base + height * width; k++) if (X[k] > max) max = X[k];
  let sum = 0;
  let su = 0;
  let sv = 0;
  for (let i = 0; i < height; i++) {
    const v = keypointCoordinate(i, height);
    for (let j = 0; j < width; j++) {
      const e = Math.exp(X[base + i * width + j] - max);
      sum += e;
      su += e * keypointCoordinate(j, width);
      sv += e * v;
    }
  }
  return { max, sum, meanU: su / sum, meanV: sv / sum };
}
