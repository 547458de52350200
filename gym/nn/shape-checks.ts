import { POLICY_STATS_WIDTH, PPO_BATCH_WIDTH, assertSameSize, convOutputSize, type ConvGeometry, type MapGeometry, type MatmulOptions } from './backend';
import { asMatrix, type Tensor } from './tensor';

/** Shape validation shared by both backends, so they reject exactly the same calls. */
export function matmulDims(a: Tensor, b: Tensor, c: Tensor, opts: MatmulOptions): { M: number; N: number; K: number } {
  if (a.shape.length !== 2 || b.shape.length !== 2 || c.shape.length !== 2) {
    throw new Error(`matmul needs 2-D tensors, got [${a.shape}] · [${b.shape}] → [${c.shape}]`);
  }
  const [M, K] = opts.transA ? [a.shape[1], a.shape[0]] : [a.shape[0], a.shape[1]];
  const [Kb, N] = opts.transB ? [b.shape[1], b.shape[0]] : [b.shape[0], b.shape[1]];
  if (K !== Kb || c.shape[0] !== M || c.shape[1] !== N) {
    throw new Error(`matmul shape mismatch: op(A) ${M}×${K}, op(B) ${Kb}×${N}, C [${c.shape}]`);
  }
  if (opts.accumulate && (opts.bias || (opts.activation ?? 'none') !== 'none')) {
    throw new Error('matmul: accumulate cannot be combined with bias or activation');
  }
  return { M, N, K };
}

export function checkConv(g: ConvGeometry, x: Tensor, w: Tensor, y: Tensor): { outHeight: number; outWidth: number } {
  const out = convOutputSize(g);
  assertSameSize('conv input', x, g.batch * g.inChannels * g.inHeight * g.inWidth);
  assertSameSize('conv weight', w, g.inChannels * g.kernel * g.kernel * g.outChannels);
  assertSameSize('conv output', y, g.batch * g.outChannels * out.outHeight * out.outWidth);
  return out;
}

/** Spatial soft-argmax shapes: maps [B, C, H, W] in, keypoints [B, C, 2] out (and their gradients). */
export function checkSpatialSoftmax(g: MapGeometry, maps: Tensor, keypoints: Tensor, dMaps?: Tensor): { maps: number; plane: number } {
  for (const [what, v] of Object.entries(g)) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`spatialSoftmax: ${what} must be a positive integer, got ${v}`);
  }
  const plane = g.height * g.width;
  assertSameSize('spatialSoftmax maps', maps, g.batch * g.channels * plane);
  assertSameSize('spatialSoftmax keypoints', keypoints, g.batch * g.channels * 2);
  if (dMaps) assertSameSize('spatialSoftmaxBackward dx', dMaps, maps.size);
  return { maps: g.batch * g.channels, plane };
}

export function checkPolicyLoss(logits: Tensor, batch: Tensor, dLogits: Tensor, stats: Tensor): { rows: number; cols: number } {
  const { rows, cols } = asMatrix(logits);
  assertSameSize('ppoPolicyLoss batch', batch, rows * PPO_BATCH_WIDTH);
  assertSameSize('ppoPolicyLoss dLogits', dLogits, logits.size);
  assertSameSize('ppoPolicyLoss stats', stats, rows * POLICY_STATS_WIDTH);
  return { rows, cols };
}

export function checkValueLoss(values: Tensor, batch: Tensor, dValues: Tensor, stats: Tensor): number {
  const rows = values.size;
  assertSameSize('ppoValueLoss batch', batch, rows * PPO_BATCH_WIDTH);
  assertSameSize('ppoValueLoss dValues', dValues, rows);
  assertSameSize('ppoValueLoss stats', stats, rows);
  return rows;
}

export function checkGather(src: Tensor, indices: Tensor, out: Tensor): { srcRows: number; cols: number } {
  const { rows: srcRows, cols } = asMatrix(src);
  assertSameSize('gatherRows out', out, indices.size * cols);
  return { srcRows, cols };
}

export function checkSample(logits: Tensor, actions: Tensor, logProbs: Tensor): { rows: number; cols: number } {
  const { rows, cols } = asMatrix(logits);
  assertSameSize('sampleCategorical actions', actions, rows);
  assertSameSize('sampleCategorical logProbs', logProbs, rows);
  return { rows, cols };
}

export function checkAdam(params: Tensor, grads: Tensor, m: Tensor, v: Tensor): void {
  assertSameSize('adamUpdate grads', grads, params.size);
  assertSameSize('adamUpdate m', m, params.size);
  assertSameSize('adamUpdate v', v, params.size);
}
