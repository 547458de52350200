/**
 * The CPU backend's matrix product: C[i, j] = Σₖ A(i, k)·B(k, j) with every element summed in
 * float64, one term at a time, in ascending k. The products of two float32 values are exact in
 * float64, so that order fixes every bit of the result, and any loop order that keeps it gives
 * the same checkpoints (cpu-gradients.test.ts pins it).
 *
 * Why tiles: the learner's products are tall (a minibatch of the scorer is 64 samples × 192
 * rows = 12,288 rows), and a weight gradient sums over all of them. Sums are therefore kept in
 * 4×4 register blocks over a slice of k at a time, and the slice's partial sums wait in `out`
 * for the next slice, so each element still receives its terms in ascending k while A and B
 * are read from cache instead of memory.
 */

/** Where op(A) and op(B) keep their elements: A(i, k) = A[i·ai + k·ak], B(k, j) = B[k·bk + j·bj]. */
export interface GemmLayout {
  ai: number;
  ak: number;
  bk: number;
  bj: number;
}

/** The layout of op(A) for A stored [M, K] (or [K, M] when transposed), and of op(B) likewise. */
export function gemmLayout(M: number, N: number, K: number, transA: boolean, transB: boolean): GemmLayout {
  return { ai: transA ? 1 : K, ak: transA ? M : 1, bk: transB ? 1 : N, bj: transB ? K : 1 };
}

/** Adds op(A)·op(B) over rows [i0, i1) and columns [j0, j1) of C (row-major, N columns) to `out`. */
export type GemmBlock = (
  out: Float64Array,
  A: Float32Array,
  B: Float32Array,
  N: number,
  K: number,
  l: GemmLayout,
  i0: number,
  i1: number,
  j0: number,
  j1: number,
) => void;

/**
 * Builds the kernel. Self-contained (it closes over nothing outside its body), so that
 * cpu-threads.ts can hand its source to a worker thread, which then runs the very same loops.
 * Any split of C into blocks gives the same bits: each element's sum runs over k in the same order.
 */
export function makeGemmBlock(): GemmBlock {
  /** Rows of k per slice: a slice of A and of B (up to 64 columns each) then fits in L2 together. */
  const K_TILE = 256;

  function dot(start: number, A: Float32Array, B: Float32Array, i: number, j: number, k0: number, k1: number, l: GemmLayout): number {
    let s = start;
    let a = i * l.ai + k0 * l.ak;
    let b = k0 * l.bk + j * l.bj;
    for (let k = k0; k < k1; k++, a += l.ak, b += l.bk) s += A[a] * B[b];
    return s;
  }

  /** out[i..i+3, j..j+3] += Σₖ over [k0, k1), sixteen sums held in registers. */
  function block4x4(out: Float64Array, A: Float32Array, B: Float32Array, N: number, i: number, j: number, k0: number, k1: number, l: GemmLayout): void {
    const { ai, ak, bk, bj } = l;
    const o0 = i * N + j;
    const o1 = o0 + N;
    const o2 = o1 + N;
    const o3 = o2 + N;
    let s00 = out[o0];
    let s01 = out[o0 + 1];
    let s02 = out[o0 + 2];
    let s03 = out[o0 + 3];
    let s10 = out[o1];
    let s11 = out[o1 + 1];
    let s12 = out[o1 + 2];
    let s13 = out[o1 + 3];
    let s20 = out[o2];
    let s21 = out[o2 + 1];
    let s22 = out[o2 + 2];
    let s23 = out[o2 + 3];
    let s30 = out[o3];
    let s31 = out[o3 + 1];
    let s32 = out[o3 + 2];
    let s33 = out[o3 + 3];
    let a = i * ai + k0 * ak;
    let b = k0 * bk + j * bj;
    const ai2 = 2 * ai;
    const ai3 = 3 * ai;
    const bj2 = 2 * bj;
    const bj3 = 3 * bj;
    for (let k = k0; k < k1; k++, a += ak, b += bk) {
      const b0 = B[b];
      const b1 = B[b + bj];
      const b2 = B[b + bj2];
      const b3 = B[b + bj3];
      let x = A[a];
      s00 += x * b0;
      s01 += x * b1;
      s02 += x * b2;
      s03 += x * b3;
      x = A[a + ai];
      s10 += x * b0;
      s11 += x * b1;
      s12 += x * b2;
      s13 += x * b3;
      x = A[a + ai2];
      s20 += x * b0;
      s21 += x * b1;
      s22 += x * b2;
      s23 += x * b3;
      x = A[a + ai3];
      s30 += x * b0;
      s31 += x * b1;
      s32 += x * b2;
      s33 += x * b3;
    }
    out[o0] = s00;
    out[o0 + 1] = s01;
    out[o0 + 2] = s02;
    out[o0 + 3] = s03;
    out[o1] = s10;
    out[o1 + 1] = s11;
    out[o1 + 2] = s12;
    out[o1 + 3] = s13;
    out[o2] = s20;
    out[o2 + 1] = s21;
    out[o2 + 2] = s22;
    out[o2 + 3] = s23;
    out[o3] = s30;
    out[o3 + 1] = s31;
    out[o3 + 2] = s32;
    out[o3 + 3] = s33;
  }

  return (out, A, B, N, K, l, i0, i1, j0, j1) => {
    const i4 = i0 + (i1 - i0) - ((i1 - i0) % 4);
    const j4 = j0 + (j1 - j0) - ((j1 - j0) % 4);
    for (let k0 = 0; k0 < K; k0 += K_TILE) {
      const k1 = Math.min(K, k0 + K_TILE);
      for (let i = i0; i < i4; i += 4) {
        for (let j = j0; j < j4; j += 4) block4x4(out, A, B, N, i, j, k0, k1, l);
        for (let j = j4; j < j1; j++) for (let r = i; r < i + 4; r++) out[r * N + j] = dot(out[r * N + j], A, B, r, j, k0, k1, l);
      }
      for (let i = i4; i < i1; i++) for (let j = j0; j < j1; j++) out[i * N + j] = dot(out[i * N + j], A, B, i, j, k0, k1, l);
    }
  };
}

export const gemmBlock: GemmBlock = makeGemmBlock();

/** Adds op(A)·op(B) (M×N) to `out` (row-major, M·N values, usually zeros), on this thread. */
export function gemmInto(out: Float64Array, A: Float32Array, B: Float32Array, M: number, N: number, K: number, l: GemmLayout): void {
  gemmBlock(out, A, B, N, K, l, 0, M, 0, N);
}
