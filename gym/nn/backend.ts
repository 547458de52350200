import type { Tensor } from './tensor';

export type { Tensor } from './tensor';

export type BackendKind = 'cpu' | 'webgpu';
export type Activation = 'none' | 'relu' | 'tanh';

export interface MatmulOptions {
  /** Use A transposed: A is stored [K, M] instead of [M, K]. */
  transA?: boolean;
  /** Use B transposed: B is stored [N, K] instead of [K, N]. */
  transB?: boolean;
  /** Add to C instead of overwriting it (C += op(A)·op(B)); no bias/activation then. */
  accumulate?: boolean;
  /** Row vector [N] added to every row of the product. */
  bias?: Tensor;
  /** Applied after the bias: C = act(op(A)·op(B) + bias). */
  activation?: Activation;
}

/**
 * A valid (unpadded) 2-D convolution with a square kernel. Images are NCHW; the weight is
 * stored as an im2col matrix [inChannels·kernel·kernel, outChannels] with rows ordered
 * (channel, ky, kx), so a convolution is exactly im2col(x) · W.
 */
export interface ConvGeometry {
  batch: number;
  inChannels: number;
  inHeight: number;
  inWidth: number;
  outChannels: number;
  kernel: number;
  stride: number;
}

export function convOutputSize(g: ConvGeometry): { outHeight: number; outWidth: number } {
  const outHeight = Math.floor((g.inHeight - g.kernel) / g.stride) + 1;
  const outWidth = Math.floor((g.inWidth - g.kernel) / g.stride) + 1;
  if (outHeight < 1 || outWidth < 1) throw new Error(`conv kernel ${g.kernel} does not fit a ${g.inHeight}×${g.inWidth} input`);
  return { outHeight, outWidth };
}

/** Feature maps [batch, channels, height, width] (NCHW), each read as one spatial distribution. */
export interface MapGeometry {
  batch: number;
  channels: number;
  height: number;
  width: number;
}

/**
 * The coordinate the spatial soft-argmax gives the centre of pixel i of `size`: −1 at the first,
 * +1 at the last, so a keypoint reads the same on every map size.
 */
export function keypointCoordinate(i: number, size: number): number {
  return size === 1 ? 0 : (2 * i) / (size - 1) - 1;
}

/**
 * Column layout of the per-sample PPO batch tensor [B, PPO_BATCH_WIDTH] the loss kernels
 * read. Actions are stored as exact small integers in float32. WEIGHT is the sample's share
 * of the minibatch mean (1/minibatch size, 0 for padding rows).
 */
export const PpoBatchColumn = { action: 0, oldLogProb: 1, advantage: 2, return: 3, oldValue: 4, weight: 5 } as const;
export const PPO_BATCH_WIDTH = 6;

/**
 * Column layout of the per-sample policy statistics [B, POLICY_STATS_WIDTH], already
 * multiplied by the sample weight so column sums are minibatch means.
 * clipLow/clipHigh: ratio outside the trust region on that side (r < 1−εlow, r > 1+εhigh).
 * activeLow/activeHigh: the clip actually zeroed the gradient (A<0 & r<1−εlow, A>0 & r>1+εhigh).
 */
export const PolicyStat = {
  loss: 0,
  entropy: 1,
  approxKl: 2,
  clipLow: 3,
  clipHigh: 4,
  activeLow: 5,
  activeHigh: 6,
} as const;
export const POLICY_STATS_WIDTH = 7;

export interface PolicyLossParams {
  epsLow: number;
  epsHigh: number;
  entCoef: number;
}

export interface ValueLossParams {
  /** null: plain squared error; a number: CleanRL's clipped value loss around the old value. */
  clipCoef: number | null;
  vfCoef: number;
}

/**
 * Layout of the optimizer state tensor [OPT_STATE_WIDTH]. It lives on the device so that
 * gradient clipping and the step counter need no read-back between minibatches.
 */
export const OptState = {
  lr: 0,
  beta1: 1,
  beta2: 2,
  eps: 3,
  maxGradNorm: 4,
  step: 5,
  clipScale: 6,
  gradSumSq: 7,
  gradNorm: 8,
} as const;
export const OPT_STATE_WIDTH = 9;

/**
 * A device-resident tensor backend. Ops enqueue work and return immediately; outputs are
 * explicit so callers can preallocate every buffer once and reuse it across a whole update.
 * Only `read`/`readMany` wait for the device. Outputs must not share storage with inputs.
 */
export interface Backend {
  readonly kind: BackendKind;
  /** Human-readable description (adapter name for WebGPU). */
  readonly info: string;

  /** Allocates a zero-filled tensor, or one holding `data`. */
  tensor(shape: readonly number[], data?: ArrayLike<number>): Tensor;
  /** Overwrites `data.length` elements starting at element `offset` of `t`. Orders after all enqueued work. */
  write(t: Tensor, data: ArrayLike<number>, offset?: number): void;
  read(t: Tensor): Promise<Float32Array>;
  /** Reads several tensors with one device round trip. */
  readMany(ts: readonly Tensor[]): Promise<Float32Array[]>;
  /** Submits enqueued work (a no-op on the CPU). */
  flush(): void;
  /** Frees the storage of `t` (and of every view of it). */
  dispose(t: Tensor): void;
  destroy(): void;

  fill(t: Tensor, value: number): void;
  copy(src: Tensor, dst: Tensor): void;

  /** C = act(op(A)·op(B) + bias), or C += op(A)·op(B). */
  matmul(a: Tensor, b: Tensor, c: Tensor, opts?: MatmulOptions): void;
  /** dx = dy ⊙ act'(…) expressed through the activation's output y. */
  activationBackward(dy: Tensor, y: Tensor, activation: Activation, dx: Tensor): void;
  /** out[j] (+)= Σ_i x[i, j] for x seen as [rows, cols]. */
  sumRows(x: Tensor, out: Tensor, accumulate?: boolean): void;

  conv2d(x: Tensor, w: Tensor, bias: Tensor | null, out: Tensor, g: ConvGeometry, activation?: Activation): void;
  conv2dBackwardInput(dy: Tensor, w: Tensor, dx: Tensor, g: ConvGeometry): void;
  conv2dBackwardWeight(dy: Tensor, x: Tensor, dw: Tensor, g: ConvGeometry): void;
  conv2dBackwardBias(dy: Tensor, db: Tensor, g: ConvGeometry): void;

  /**
   * Spatial soft-argmax (keypoints): for each map of x [B, C, H, W], the expected pixel
   * coordinate under softmax over its H·W values; out [B, C, 2] holds (x, y) per map, in
   * keypointCoordinate units. A position becomes a number a linear layer can subtract.
   */
  spatialSoftmax(x: Tensor, out: Tensor, g: MapGeometry): void;
  /** dx = ∂L/∂x given dy = ∂L/∂out: p·((u − ū)·dū + (v − v̄)·dv̄) per pixel, the softmax recomputed from x. */
  spatialSoftmaxBackward(x: Tensor, dy: Tensor, dx: Tensor, g: MapGeometry): void;

  /**
   * Action masking (MaskablePPO): logits[i] = MASKED_LOGIT where mask[i] is 0, unchanged where
   * it is 1; mask has the logits' shape. Softmax then gives masked actions probability 0, so they
   * are never sampled and add nothing to the entropy or the policy gradient.
   */
  maskLogits(logits: Tensor, mask: Tensor): void;
  logSoftmax(logits: Tensor, out: Tensor): void;
  /** out[i] = entropy of softmax(logits[i]). */
  entropy(logits: Tensor, out: Tensor): void;
  /**
   * Draws one action per row from softmax(logits) by inverse CDF with a counter-based hash
   * uniform (see hash-rng.ts), so both backends draw the same actions for the same
   * (seed, counter, row). Writes the action index and its log-probability.
   */
  sampleCategorical(logits: Tensor, seed: number, counter: number, actions: Tensor, logProbs: Tensor): void;
  /** out[r, :] = src[indices[r], :]; indices are exact integers stored as float32. */
  gatherRows(src: Tensor, indices: Tensor, out: Tensor): void;

  /** PPO clipped policy loss with entropy bonus: per-row weighted stats and d(loss)/d(logits). */
  ppoPolicyLoss(logits: Tensor, batch: Tensor, dLogits: Tensor, stats: Tensor, p: PolicyLossParams): void;
  /** (Clipped) value loss: per-row weighted loss (0.5·squared error) and d(vfCoef·loss)/d(value). */
  ppoValueLoss(values: Tensor, batch: Tensor, dValues: Tensor, stats: Tensor, p: ValueLossParams): void;

  /** out[0] (+)= Σ x². */
  sumSquares(x: Tensor, out: Tensor, accumulate?: boolean): void;
  /** Increments the step, and turns state.gradSumSq into gradNorm and the clip scale. */
  adamPrepare(state: Tensor): void;
  /** One Adam step on params with clipped grads; m and v are the moment buffers. */
  adamUpdate(params: Tensor, grads: Tensor, m: Tensor, v: Tensor, state: Tensor): void;
}

/** A masked action's logit: exp(MASKED_LOGIT − max) is 0 in float32, and it stays finite (0 · it is 0, not NaN). */
export const MASKED_LOGIT = -1e9;

export function assertSameSize(what: string, a: Tensor, expected: number): void {
  if (a.size !== expected) throw new Error(`${what}: expected ${expected} elements, got ${a.size} ([${a.shape.join(', ')}])`);
}
