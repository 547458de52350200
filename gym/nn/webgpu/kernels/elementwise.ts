import type { Activation } from '../../backend';
import { defineKernel } from './define';

/** `act(x)`: the forward activation, fused into the matmul and conv2d stores. */
export function activationWgsl(act: Activation): string {
  if (act === 'relu') return 'fn act(x: f32) -> f32 { return max(x, 0.0); }';
  if (act === 'tanh') return 'fn act(x: f32) -> f32 { return tanh(x); }';
  return 'fn act(x: f32) -> f32 { return x; }';
}

/** `act_grad(y)`: the activation's derivative expressed through its output y. */
function activationDerivativeWgsl(act: Activation): string {
  if (act === 'relu') return 'fn act_grad(y: f32) -> f32 { return select(0.0, 1.0, y > 0.0); }';
  if (act === 'tanh') return 'fn act_grad(y: f32) -> f32 { return 1.0 - y * y; }';
  return 'fn act_grad(y: f32) -> f32 { return 1.0; }';
}

export const fillKernel = defineKernel({
  name: 'fill',
  params: { n: 'u32', off: 'u32', value: 'f32' },
  bindings: { out: 'read_write' },
  grid: '1d',
  body: /* wgsl */ `
  let i = linear_index(gid, nwg);
  if (i >= p.n) { return; }
  out[p.off + i] = p.value;
`,
});

export const copyKernel = defineKernel({
  name: 'copy',
  params: { n: 'u32', srcOff: 'u32', dstOff: 'u32' },
  bindings: { src: 'read', dst: 'read_write' },
  grid: '1d',
  body: /* wgsl */ `
  let i = linear_index(gid, nwg);
  if (i >= p.n) { return; }
  dst[p.dstOff + i] = src[p.srcOff + i];
`,
});

/** Action masking: a logit whose mask entry is 0 becomes MASKED_LOGIT (the literal is passed as a parameter). */
export const maskLogitsKernel = defineKernel({
  name: 'mask_logits',
  params: { n: 'u32', zOff: 'u32', mOff: 'u32', masked: 'f32' },
  bindings: { Z: 'read_write', mask: 'read' },
  grid: '1d',
  body: /* wgsl */ `
  let i = linear_index(gid, nwg);
  if (i >= p.n) { return; }
  if (mask[p.mOff + i] == 0.0) { Z[p.zOff + i] = p.masked; }
`,
});

export function activationBackwardKernel(act: Activation) {
  return defineKernel({
    name: `act_backward:${act}`,
    params: { n: 'u32', dyOff: 'u32', yOff: 'u32', dxOff: 'u32' },
    bindings: { dy: 'read', y: 'read', dx: 'read_write' },
    grid: '1d',
    wgsl: [activationDerivativeWgsl(act)],
    body: /* wgsl */ `
  let i = linear_index(gid, nwg);
  if (i >= p.n) { return; }
  dx[p.dxOff + i] = dy[p.dyOff + i] * act_grad(y[p.yOff + i]);
`,
  });
}

/** Row indices are exact integers stored as float32; a kernel cannot throw, so out-of-range ones clamp to the last row. */
export const gatherRowsKernel = defineKernel({
  name: 'gather_rows',
  params: { rows: 'u32', cols: 'u32', srcRows: 'u32', srcOff: 'u32', idxOff: 'u32', outOff: 'u32' },
  bindings: { src: 'read', idx: 'read', out: 'read_write' },
  grid: '1d',
  body: /* wgsl */ `
  let i = linear_index(gid, nwg);
  if (i >= p.rows * p.cols) { return; }
  let r = i / p.cols;
  let srcRow = min(u32(idx[p.idxOff + r]), p.srcRows - 1u);
  out[p.outOff + i] = src[p.srcOff + srcRow * p.cols + (i % p.cols)];
`,
});
