import { convOutputSize, type ConvGeometry } from './backend';

/**
 * The CPU backend's convolutions as matrix products (im2col): each output position's input
 * window is copied into one row of a patch matrix, columns ordered (c, ky, kx) as the weights
 * [C·K·K, O] are, so a convolution is patches · W and its gradients are two more products.
 *
 * Why: the direct six-deep loops ran the Nature-CNN at ≈ 0.4 GFLOP/s, making a pixel PPO
 * update take minutes; `gemmInto`'s register blocks run the same sums several times faster.
 * Forward and weight-gradient sums keep their terms and order (ascending (c, ky, kx), and
 * ascending (n, oy, ox)), so their bits are unchanged. The input gradient is now summed in
 * float64 and rounded once, as every other sum of this backend is.
 */

/** Rows: N·OH·OW output positions; columns: C·K·K window elements. */
export function convPatchShape(g: ConvGeometry): { rows: number; cols: number; plane: number } {
  const { outHeight, outWidth } = convOutputSize(g);
  const plane = outHeight * outWidth;
  return { rows: g.batch * plane, cols: g.inChannels * g.kernel * g.kernel, plane };
}

/**
 * Where each element of one sample's patch rows comes from: the offset, within that sample's
 * NCHW input, of the pixel each (position, c, ky, kx) element copies. im2col gathers through it and
 * col2imAdd scatters back through it, so both walk the windows in the same order.
 */
function patchSources(g: ConvGeometry): Int32Array {
  const key = `${g.inChannels},${g.inHeight},${g.inWidth},${g.kernel},${g.stride}`;
  const cached = PATCH_SOURCES.get(key);
  if (cached) return cached;
  const { outHeight: OH, outWidth: OW } = convOutputSize(g);
  const { inChannels: C, inHeight: H, inWidth: W, kernel: KS, stride: S } = g;
  const src = new Int32Array(OH * OW * C * KS * KS);
  let r = 0;
  for (let oy = 0; oy < OH; oy++)
    for (let ox = 0; ox < OW; ox++)
      for (let c = 0; c < C; c++)
        for (let ky = 0; ky < KS; ky++) {
          const row = c * H * W + (oy * S + ky) * W + ox * S;
          for (let kx = 0; kx < KS; kx++) src[r++] = row + kx;
        }
  PATCH_SOURCES.set(key, src);
  return src;
}
const PATCH_SOURCES = new Map<string, Int32Array>();

/** Copies every output position's input window (NCHW input) into a row of `patches`. */
export function im2col(X: Float32Array, g: ConvGeometry, patches: Float32Array): void {
  const src = patchSources(g);
  const sample = g.inChannels * g.inHeight * g.inWidth;
  let r = 0;
  for (let n = 0, off = 0; n < g.batch; n++, off += sample) for (let j = 0; j < src.length; j++) patches[r++] = X[off + src[j]];
}

/** The inverse scatter: adds each patch element back onto the input pixel it was copied from. */
export function col2imAdd(dPatches: Float64Array, g: ConvGeometry, dX: Float64Array): void {
  const src = patchSources(g);
  const sample = g.inChannels * g.inHeight * g.inWidth;
  let r = 0;
  for (let n = 0, off = 0; n < g.batch; n++, off += sample) for (let j = 0; j < src.length; j++) dX[off + src[j]] += dPatches[r++];
}

/** NCHW [n, o, p] → position-major [(n, p), o]: the layout the products read output gradients in. */
export function channelsLast(DY: Float32Array, batch: number, channels: number, plane: number, out: Float32Array): void {
  for (let n = 0; n < batch; n++)
    for (let o = 0; o < channels; o++) {
      const src = (n * channels + o) * plane;
      const dst = n * plane * channels + o;
      for (let p = 0; p < plane; p++) out[dst + p * channels] = DY[src + p];
    }
}
