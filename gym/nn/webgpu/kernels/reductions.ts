import { defineKernel } from './define';

/** One invocation per column: out[j] (+)= Σ_i x[i, j]. */
export const sumRowsKernel = defineKernel({
  name: 'sum_rows',
  params: { rows: 'u32', cols: 'u32', xOff: 'u32', outOff: 'u32', accumulate: 'u32' },
  bindings: { x: 'read', out: 'read_write' },
  grid: '1d',
  body: /* wgsl */ `
  let j = linear_index(gid, nwg);
  if (j >= p.cols) { return; }
  var s = 0.0;
  for (var i = 0u; i < p.rows; i++) { s += x[p.xOff + i * p.cols + j]; }
  if (p.accumulate != 0u) { s += out[p.outOff + j]; }
  out[p.outOff + j] = s;
`,
});

export const SUM_SQUARES_WG = 256;

/** A single workgroup (dispatch 1×1): strided partial sums, then a tree reduction in workgroup memory. */
export const sumSquaresKernel = defineKernel({
  name: 'sum_squares',
  params: { n: 'u32', xOff: 'u32', outOff: 'u32', accumulate: 'u32' },
  bindings: { x: 'read', out: 'read_write' },
  grid: { workgroupSize: SUM_SQUARES_WG, builtins: ['local_invocation_index'] },
  wgsl: [`var<workgroup> partial: array<f32, ${SUM_SQUARES_WG}>;`],
  body: /* wgsl */ `
  var s = 0.0;
  for (var i = li; i < p.n; i += ${SUM_SQUARES_WG}u) {
    let v = x[p.xOff + i];
    s += v * v;
  }
  partial[li] = s;
  workgroupBarrier();
  for (var stride = ${SUM_SQUARES_WG / 2}u; stride > 0u; stride >>= 1u) {
    if (li < stride) { partial[li] += partial[li + stride]; }
    workgroupBarrier();
  }
  if (li == 0u) {
    var total = partial[0];
    if (p.accumulate != 0u) { total += out[p.outOff]; }
    out[p.outOff] = total;
  }
`,
});
