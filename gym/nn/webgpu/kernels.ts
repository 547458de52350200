import type { Activation } from '../backend';
import { HASH_WGSL } from '../hash-rng';

/**
 * WGSL sources. Every kernel binds whole buffers and receives element offsets in its
 * uniform, so tensors may be views at any offset. Kernels are written for a software
 * rasteriser first (SwiftShader): no workgroup memory except in reductions, and register
 * blocking (each invocation computes a 4×4 or 4×k block) instead of shared-memory tiles.
 *
 * Each kernel's `params` lists its uniform fields in order: `u` = u32, `f` = f32.
 */
export type BindingAccess = 'read' | 'write';

export interface KernelSource {
  /** Cache key of the compiled pipeline. */
  key: string;
  code: string;
  /** Storage bindings 0..n-1; the uniform is binding n. */
  bindings: BindingAccess[];
  params: string;
}

/** 1-D kernels use this workgroup size and a 2-D grid when they need more than 65535 groups. */
export const WG = 64;

const linearIndex = /* wgsl */ `
fn linear_index(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * ${WG}u; }`;

function activationWgsl(act: Activation): string {
  if (act === 'relu') return 'fn act(x: f32) -> f32 { return max(x, 0.0); }';
  if (act === 'tanh') return 'fn act(x: f32) -> f32 { return tanh(x); }';
  return 'fn act(x: f32) -> f32 { return x; }';
}

function activationDerivativeWgsl(act: Activation): string {
  if (act === 'relu') return 'fn act_grad(y: f32) -> f32 { return select(0.0, 1.0, y > 0.0); }';
  if (act === 'tanh') return 'fn act_grad(y: f32) -> f32 { return 1.0 - y * y; }';
  return 'fn act_grad(y: f32) -> f32 { return 1.0; }';
}

export const fillKernel: KernelSource = {
  key: 'fill',
  bindings: ['write'],
  params: 'uuf',
  code: /* wgsl */ `
struct P { n: u32, off: u32, value: f32 }
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<uniform> p: P;
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = linear_index(gid, nwg);
  if (i >= p.n) { return; }
  out[p.off + i] = p.value;
}`,
};

export const copyKernel: KernelSource = {
  key: 'copy',
  bindings: ['read', 'write'],
  params: 'uuu',
  code: /* wgsl */ `
struct P { n: u32, srcOff: u32, dstOff: u32 }
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> p: P;
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = linear_index(gid, nwg);
  if (i >= p.n) { return; }
  dst[p.dstOff + i] = src[p.srcOff + i];
}`,
};

export interface MatmulVariant {
  transA: boolean;
  transB: boolean;
  bias: boolean;
  activation: Activation;
  accumulate: boolean;
  /**
   * K, the offsets and the contiguous dimensions are multiples of 4: the inner loop steps k by
   * 4 and loads operands as vec4 (a quarter of the load instructions, which dominate on
   * SwiftShader).
   */
  vec4: boolean;
}

/** Each invocation computes a 4×4 block of C; a workgroup (8×8) covers 32×32. */
export const MATMUL_TILE = 32;

/** Whether the vec4 matmul variant applies (see MatmulVariant.vec4). */
export function matmulVec4Eligible(M: number, N: number, K: number, transA: boolean, transB: boolean, offsets: number[]): boolean {
  return K % 4 === 0 && (transA ? M % 4 === 0 : true) && (transB ? true : N % 4 === 0) && offsets.every((o) => o % 4 === 0);
}

function matmulInnerLoop(v: MatmulVariant): string {
  if (!v.vec4) {
    const aStart = v.transA ? 'rows' : 'rows * p.K';
    const aStep = v.transA ? 'p.M' : '1u';
    const bStart = v.transB ? 'cols * p.K' : 'cols';
    const bStep = v.transB ? '1u' : 'p.N';
    return `
  var ai = vec4u(p.aOff) + ${aStart};
  var bi = vec4u(p.bOff) + ${bStart};
  for (var k = 0u; k < p.K; k++) {
    let b = vec4f(B[bi.x], B[bi.y], B[bi.z], B[bi.w]);
    acc0 += A[ai.x] * b;
    acc1 += A[ai.y] * b;
    acc2 += A[ai.z] * b;
    acc3 += A[ai.w] * b;
    ai += vec4u(${aStep});
    bi += vec4u(${bStep});
  }`;
  }
  // Four k steps per iteration. A: without transA each row's 4 k values are one vec4
  // (ar0..ar3); with transA each k's 4 rows are one vec4 (ak0..ak3). B likewise.
  const aLoads = v.transA
    ? [0, 1, 2, 3].map((kk) => `let ak${kk} = A[(p.aOff + (k + ${kk}u) * p.M + row0) / 4u];`).join('\n    ')
    : [0, 1, 2, 3].map((r) => `let ar${r} = A[(p.aOff + rows[${r}] * p.K + k) / 4u];`).join('\n    ');
  const a = (r: number, kk: number) => (v.transA ? `ak${kk}[${r}]` : `ar${r}[${kk}]`);
  const bLoads = v.transB
    ? [0, 1, 2, 3].map((j) => `let bc${j} = B[(p.bOff + cols[${j}] * p.K + k) / 4u];`).join('\n    ')
    : [0, 1, 2, 3].map((kk) => `let bk${kk} = B[(p.bOff + (k + ${kk}u) * p.N + col0) / 4u];`).join('\n    ');
  const b = (kk: number) => (v.transB ? `vec4f(bc0[${kk}], bc1[${kk}], bc2[${kk}], bc3[${kk}])` : `bk${kk}`);
  const fmas = [0, 1, 2, 3]
    .map((kk) => [`let b${kk} = ${b(kk)};`, ...[0, 1, 2, 3].map((r) => `acc${r} += ${a(r, kk)} * b${kk};`)].join('\n    '))
    .join('\n    ');
  return `
  for (var k = 0u; k < p.K; k += 4u) {
    ${aLoads}
    ${bLoads}
    ${fmas}
  }`;
}

export function matmulKernel(v: MatmulVariant): KernelSource {
  const store = v.accumulate
    ? 'C[at] = C[at] + value;'
    : `C[at] = act(value${v.bias ? ' + bias[p.biasOff + col]' : ''});`;
  const elem = v.vec4 ? 'vec4f' : 'f32';
  return {
    key: `matmul:${v.transA ? 'T' : 'N'}${v.transB ? 'T' : 'N'}:${v.bias ? 'b' : '-'}:${v.activation}:${v.accumulate ? 'acc' : 'set'}:${v.vec4 ? 'v4' : 's'}`,
    bindings: ['read', 'read', 'read', 'write'],
    params: 'uuuuuuu',
    code: /* wgsl */ `
struct P { M: u32, N: u32, K: u32, aOff: u32, bOff: u32, biasOff: u32, cOff: u32 }
@group(0) @binding(0) var<storage, read> A: array<${elem}>;
@group(0) @binding(1) var<storage, read> B: array<${elem}>;
@group(0) @binding(2) var<storage, read> bias: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
@group(0) @binding(4) var<uniform> p: P;
${activationWgsl(v.activation)}

fn put(row: u32, col: u32, value: f32) {
  if (row >= p.M || col >= p.N) { return; }
  let at = p.cOff + row * p.N + col;
  ${store}
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let row0 = gid.y * 4u;
  let col0 = gid.x * 4u;
  if (row0 >= p.M || col0 >= p.N) { return; }
  // Clamp out-of-range rows/columns so the inner loop needs no bounds checks; their results are dropped.
  let rows = min(vec4u(row0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.M - 1u));
  let cols = min(vec4u(col0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.N - 1u));
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  ${matmulInnerLoop(v)}
  for (var j = 0u; j < 4u; j++) {
    put(row0, col0 + j, acc0[j]);
    put(row0 + 1u, col0 + j, acc1[j]);
    put(row0 + 2u, col0 + j, acc2[j]);
    put(row0 + 3u, col0 + j, acc3[j]);
  }
}`,
  };
}

export function activationBackwardKernel(act: Activation): KernelSource {
  return {
    key: `act_backward:${act}`,
    bindings: ['read', 'read', 'write'],
    params: 'uuuu',
    code: /* wgsl */ `
struct P { n: u32, dyOff: u32, yOff: u32, dxOff: u32 }
@group(0) @binding(0) var<storage, read> dy: array<f32>;
@group(0) @binding(1) var<storage, read> y: array<f32>;
@group(0) @binding(2) var<storage, read_write> dx: array<f32>;
@group(0) @binding(3) var<uniform> p: P;
${activationDerivativeWgsl(act)}
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = linear_index(gid, nwg);
  if (i >= p.n) { return; }
  dx[p.dxOff + i] = dy[p.dyOff + i] * act_grad(y[p.yOff + i]);
}`,
  };
}

export const sumRowsKernel: KernelSource = {
  key: 'sum_rows',
  bindings: ['read', 'write'],
  params: 'uuuuu',
  code: /* wgsl */ `
struct P { rows: u32, cols: u32, xOff: u32, outOff: u32, accumulate: u32 }
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> p: P;
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let j = linear_index(gid, nwg);
  if (j >= p.cols) { return; }
  var s = 0.0;
  for (var i = 0u; i < p.rows; i++) { s += x[p.xOff + i * p.cols + j]; }
  if (p.accumulate != 0u) { s += out[p.outOff + j]; }
  out[p.outOff + j] = s;
}`,
};

/** Shared uniform layout of the convolution kernels. */
const convParams = /* wgsl */ `
struct P {
  N: u32, C: u32, H: u32, W: u32, O: u32, K: u32, S: u32, OH: u32, OW: u32,
  off0: u32, off1: u32, off2: u32, off3: u32,
}`;
export const CONV_PARAMS = 'uuuuuuuuuuuuu';

/**
 * Each invocation computes 4 horizontally adjacent output pixels × 4 output channels.
 * vec4: outChannels and the weight offset are multiples of 4, so the 4 weights of a tap are one vec4 load.
 */
export function conv2dKernel(act: Activation, bias: boolean, vec4: boolean): KernelSource {
  return {
    key: `conv2d:${act}:${bias ? 'b' : '-'}:${vec4 ? 'v4' : 's'}`,
    bindings: ['read', 'read', 'read', 'write'],
    params: CONV_PARAMS,
    code: /* wgsl */ `
${convParams}
// off0 = x, off1 = w, off2 = bias, off3 = y
@group(0) @binding(0) var<storage, read> X: array<f32>;
@group(0) @binding(1) var<storage, read> Wt: array<${vec4 ? 'vec4f' : 'f32'}>;
@group(0) @binding(2) var<storage, read> bias: array<f32>;
@group(0) @binding(3) var<storage, read_write> Y: array<f32>;
@group(0) @binding(4) var<uniform> p: P;
${activationWgsl(act)}
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let oBlocks = (p.O + 3u) / 4u;
  let xBlocks = (p.OW + 3u) / 4u;
  var id = linear_index(gid, nwg);
  if (id >= p.N * p.OH * xBlocks * oBlocks) { return; }
  let o0 = (id % oBlocks) * 4u; id /= oBlocks;
  let ox0 = (id % xBlocks) * 4u; id /= xBlocks;
  let oy = id % p.OH;
  let n = id / p.OH;
  let os = min(vec4u(o0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.O - 1u));
  let oxs = min(vec4u(ox0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.OW - 1u));
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  for (var c = 0u; c < p.C; c++) {
    for (var ky = 0u; ky < p.K; ky++) {
      let xRow = p.off0 + ((n * p.C + c) * p.H + oy * p.S + ky) * p.W;
      let xi = vec4u(xRow) + oxs * p.S;
      let wRow = p.off1 + ((c * p.K + ky) * p.K) * p.O;
      for (var kx = 0u; kx < p.K; kx++) {
        let wi = wRow + kx * p.O;
        let w = ${vec4 ? 'Wt[(wi + o0) / 4u]' : 'vec4f(Wt[wi + os.x], Wt[wi + os.y], Wt[wi + os.z], Wt[wi + os.w])'};
        acc0 += X[xi.x + kx] * w;
        acc1 += X[xi.y + kx] * w;
        acc2 += X[xi.z + kx] * w;
        acc3 += X[xi.w + kx] * w;
      }
    }
  }
  var accs = array<vec4f, 4>(acc0, acc1, acc2, acc3);
  for (var px = 0u; px < 4u; px++) {
    let ox = ox0 + px;
    if (ox >= p.OW) { break; }
    for (var j = 0u; j < 4u; j++) {
      let o = o0 + j;
      if (o >= p.O) { break; }
      Y[p.off3 + ((n * p.O + o) * p.OH + oy) * p.OW + ox] = act(accs[px][j]${bias ? ' + bias[p.off2 + o]' : ''});
    }
  }
}`,
  };
}

/**
 * One invocation per input pixel and 4 input channels: gathers the output gradients whose
 * windows read the pixel (each dy value is reused for the 4 channels).
 */
export function conv2dBackwardInputKernel(vec4: boolean): KernelSource {
  // vec4 (outChannels and the weight offset multiples of 4): 4 output channels per step, each
  // channel's 4 weights one vec4 load.
  const inner = vec4
    ? `for (var o = 0u; o < p.O; o += 4u) {
        let d = vec4f(DY[di], DY[di + plane], DY[di + 2u * plane], DY[di + 3u * plane]);
        let w0 = Wt[(wi.x + o) / 4u];
        let w1 = Wt[(wi.y + o) / 4u];
        let w2 = Wt[(wi.z + o) / 4u];
        let w3 = Wt[(wi.w + o) / 4u];
        acc += vec4f(dot(d, w0), dot(d, w1), dot(d, w2), dot(d, w3));
        di += 4u * plane;
      }`
    : `for (var o = 0u; o < p.O; o++) {
        acc += DY[di] * vec4f(Wt[wi.x + o], Wt[wi.y + o], Wt[wi.z + o], Wt[wi.w + o]);
        di += plane;
      }`;
  return {
  key: `conv2d_backward_input:${vec4 ? 'v4' : 's'}`,
  bindings: ['read', 'read', 'write'],
  params: CONV_PARAMS,
  code: /* wgsl */ `
${convParams}
// off0 = dy, off1 = w, off2 = dx
@group(0) @binding(0) var<storage, read> DY: array<f32>;
@group(0) @binding(1) var<storage, read> Wt: array<${vec4 ? 'vec4f' : 'f32'}>;
@group(0) @binding(2) var<storage, read_write> DX: array<f32>;
@group(0) @binding(3) var<uniform> p: P;
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let cBlocks = (p.C + 3u) / 4u;
  var id = linear_index(gid, nwg);
  if (id >= p.N * cBlocks * p.H * p.W) { return; }
  let x = id % p.W; id /= p.W;
  let y = id % p.H; id /= p.H;
  let c0 = (id % cBlocks) * 4u;
  let n = id / cBlocks;
  let cs = min(vec4u(c0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.C - 1u));
  let plane = p.OH * p.OW;
  let kk = p.K * p.K;
  var acc = vec4f(0.0);
  // Kernel rows ky with (y − ky) divisible by the stride and inside the output.
  for (var ky = y % p.S; ky < p.K && ky <= y; ky += p.S) {
    let oy = (y - ky) / p.S;
    if (oy >= p.OH) { continue; }
    for (var kx = x % p.S; kx < p.K && kx <= x; kx += p.S) {
      let ox = (x - kx) / p.S;
      if (ox >= p.OW) { continue; }
      let wi = vec4u(p.off1) + (cs * kk + vec4u(ky * p.K + kx)) * p.O;
      var di = p.off0 + n * p.O * plane + oy * p.OW + ox;
      ${inner}
    }
  }
  let hw = p.H * p.W;
  let base = p.off2 + ((n * p.C + c0) * p.H + y) * p.W + x;
  for (var j = 0u; j < 4u; j++) {
    if (c0 + j >= p.C) { break; }
    DX[base + j * hw] = acc[j];
  }
}`,
  };
}

/** Each invocation computes 4 weight rows (channel, ky, kx) × 4 output channels. */
export const conv2dBackwardWeightKernel: KernelSource = {
  key: 'conv2d_backward_weight',
  bindings: ['read', 'read', 'write'],
  params: CONV_PARAMS,
  code: /* wgsl */ `
${convParams}
// off0 = dy, off1 = x, off2 = dw
@group(0) @binding(0) var<storage, read> DY: array<f32>;
@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> DW: array<f32>;
@group(0) @binding(3) var<uniform> p: P;
${linearIndex}
fn row_base(r: u32) -> u32 {
  // Offset of input pixel (c, ky, kx) relative to the window origin of image 0.
  let kx = r % p.K;
  let ky = (r / p.K) % p.K;
  let c = r / (p.K * p.K);
  return (c * p.H + ky) * p.W + kx;
}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let R = p.C * p.K * p.K;
  let oBlocks = (p.O + 3u) / 4u;
  let id = linear_index(gid, nwg);
  if (id >= ((R + 3u) / 4u) * oBlocks) { return; }
  let o0 = (id % oBlocks) * 4u;
  let r0 = (id / oBlocks) * 4u;
  let rs = min(vec4u(r0) + vec4u(0u, 1u, 2u, 3u), vec4u(R - 1u));
  let xb = vec4u(p.off1) + vec4u(row_base(rs.x), row_base(rs.y), row_base(rs.z), row_base(rs.w));
  let os = min(vec4u(o0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.O - 1u));
  let plane = p.OH * p.OW;
  let image = p.C * p.H * p.W;
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  for (var n = 0u; n < p.N; n++) {
    let db = vec4u(p.off0 + n * p.O * plane) + os * plane;
    for (var oy = 0u; oy < p.OH; oy++) {
      for (var ox = 0u; ox < p.OW; ox++) {
        let pos = n * image + oy * p.S * p.W + ox * p.S;
        let q = oy * p.OW + ox;
        let d = vec4f(DY[db.x + q], DY[db.y + q], DY[db.z + q], DY[db.w + q]);
        acc0 += X[xb.x + pos] * d;
        acc1 += X[xb.y + pos] * d;
        acc2 += X[xb.z + pos] * d;
        acc3 += X[xb.w + pos] * d;
      }
    }
  }
  var accs = array<vec4f, 4>(acc0, acc1, acc2, acc3);
  for (var i = 0u; i < 4u; i++) {
    let r = r0 + i;
    if (r >= R) { break; }
    for (var j = 0u; j < 4u; j++) {
      let o = o0 + j;
      if (o >= p.O) { break; }
      DW[p.off2 + r * p.O + o] = accs[i][j];
    }
  }
}`,
};

export const conv2dBackwardBiasKernel: KernelSource = {
  key: 'conv2d_backward_bias',
  bindings: ['read', 'write'],
  params: 'uuuuu',
  code: /* wgsl */ `
struct P { N: u32, O: u32, plane: u32, dyOff: u32, dbOff: u32 }
@group(0) @binding(0) var<storage, read> DY: array<f32>;
@group(0) @binding(1) var<storage, read_write> DB: array<f32>;
@group(0) @binding(2) var<uniform> p: P;
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let o = linear_index(gid, nwg);
  if (o >= p.O) { return; }
  var s = 0.0;
  for (var n = 0u; n < p.N; n++) {
    let base = p.dyOff + (n * p.O + o) * p.plane;
    for (var q = 0u; q < p.plane; q++) { s += DY[base + q]; }
  }
  DB[p.dbOff + o] = s;
}`,
};

/** Row-wise helpers shared by the softmax-family kernels (row r of Z at zOff). */
const rowMath = /* wgsl */ `
fn row_lse(base: u32, cols: u32) -> f32 {
  var m = -3.0e38;
  for (var j = 0u; j < cols; j++) { m = max(m, Z[base + j]); }
  var s = 0.0;
  for (var j = 0u; j < cols; j++) { s += exp(Z[base + j] - m); }
  return m + log(s);
}
fn row_entropy(base: u32, cols: u32, lse: f32) -> f32 {
  var h = 0.0;
  for (var j = 0u; j < cols; j++) {
    let lp = Z[base + j] - lse;
    h -= exp(lp) * lp;
  }
  return h;
}`;

export const logSoftmaxKernel: KernelSource = {
  key: 'log_softmax',
  bindings: ['read', 'write'],
  params: 'uuuu',
  code: /* wgsl */ `
struct P { rows: u32, cols: u32, zOff: u32, outOff: u32 }
@group(0) @binding(0) var<storage, read> Z: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> p: P;
${rowMath}
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = linear_index(gid, nwg);
  if (r >= p.rows) { return; }
  let base = p.zOff + r * p.cols;
  let lse = row_lse(base, p.cols);
  for (var j = 0u; j < p.cols; j++) { out[p.outOff + r * p.cols + j] = Z[base + j] - lse; }
}`,
};

export const entropyKernel: KernelSource = {
  key: 'entropy',
  bindings: ['read', 'write'],
  params: 'uuuu',
  code: /* wgsl */ `
struct P { rows: u32, cols: u32, zOff: u32, outOff: u32 }
@group(0) @binding(0) var<storage, read> Z: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> p: P;
${rowMath}
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = linear_index(gid, nwg);
  if (r >= p.rows) { return; }
  let base = p.zOff + r * p.cols;
  out[p.outOff + r] = row_entropy(base, p.cols, row_lse(base, p.cols));
}`,
};

export const sampleCategoricalKernel: KernelSource = {
  key: 'sample_categorical',
  bindings: ['read', 'write', 'write'],
  params: 'uuuuuuu',
  code: /* wgsl */ `
struct P { rows: u32, cols: u32, zOff: u32, aOff: u32, lOff: u32, seed: u32, counter: u32 }
@group(0) @binding(0) var<storage, read> Z: array<f32>;
@group(0) @binding(1) var<storage, read_write> actions: array<f32>;
@group(0) @binding(2) var<storage, read_write> logProbs: array<f32>;
@group(0) @binding(3) var<uniform> p: P;
${HASH_WGSL}
${rowMath}
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = linear_index(gid, nwg);
  if (r >= p.rows) { return; }
  let base = p.zOff + r * p.cols;
  let lse = row_lse(base, p.cols);
  let u = hash_uniform(p.seed, p.counter, r);
  var action = p.cols - 1u;
  var cdf = 0.0;
  for (var j = 0u; j < p.cols; j++) {
    cdf += exp(Z[base + j] - lse);
    if (u < cdf) { action = j; break; }
  }
  actions[p.aOff + r] = f32(action);
  logProbs[p.lOff + r] = Z[base + action] - lse;
}`,
};

export const gatherRowsKernel: KernelSource = {
  key: 'gather_rows',
  bindings: ['read', 'read', 'write'],
  params: 'uuuuuu',
  code: /* wgsl */ `
struct P { rows: u32, cols: u32, srcRows: u32, srcOff: u32, idxOff: u32, outOff: u32 }
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read> idx: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<uniform> p: P;
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = linear_index(gid, nwg);
  if (i >= p.rows * p.cols) { return; }
  let r = i / p.cols;
  let srcRow = min(u32(idx[p.idxOff + r]), p.srcRows - 1u);
  out[p.outOff + i] = src[p.srcOff + srcRow * p.cols + (i % p.cols)];
}`,
};

/** Column indices must match PpoBatchColumn / PolicyStat in backend.ts. */
export const ppoPolicyLossKernel: KernelSource = {
  key: 'ppo_policy_loss',
  bindings: ['read', 'read', 'write', 'write'],
  params: 'uuuuuufff',
  code: /* wgsl */ `
struct P { rows: u32, cols: u32, zOff: u32, bOff: u32, dOff: u32, sOff: u32, epsLow: f32, epsHigh: f32, entCoef: f32 }
@group(0) @binding(0) var<storage, read> Z: array<f32>;
@group(0) @binding(1) var<storage, read> batch: array<f32>;
@group(0) @binding(2) var<storage, read_write> dZ: array<f32>;
@group(0) @binding(3) var<storage, read_write> stats: array<f32>;
@group(0) @binding(4) var<uniform> p: P;
${rowMath}
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = linear_index(gid, nwg);
  if (r >= p.rows) { return; }
  let b = p.bOff + r * 6u;
  let action = u32(batch[b + 0u]);
  let oldLogp = batch[b + 1u];
  let adv = batch[b + 2u];
  let w = batch[b + 5u];
  let base = p.zOff + r * p.cols;
  let lse = row_lse(base, p.cols);
  let logRatio = Z[base + action] - lse - oldLogp;
  let ratio = exp(logRatio);
  let clipped = clamp(ratio, 1.0 - p.epsLow, 1.0 + p.epsHigh);
  let unclippedLoss = -adv * ratio;
  let clippedLoss = -adv * clipped;
  // max(−A·r, −A·clip(r)): the gradient flows only through the unclipped term.
  let clipActive = clippedLoss > unclippedLoss;
  let dLossdRatio = select(-adv, 0.0, clipActive);
  let H = row_entropy(base, p.cols, lse);
  for (var j = 0u; j < p.cols; j++) {
    let lp = Z[base + j] - lse;
    let prob = exp(lp);
    let dRatio = ratio * (select(0.0, 1.0, j == action) - prob);
    let dEntropy = -prob * (lp + H);
    dZ[p.dOff + r * p.cols + j] = w * (dLossdRatio * dRatio - p.entCoef * dEntropy);
  }
  let s = p.sOff + r * 7u;
  stats[s + 0u] = w * max(unclippedLoss, clippedLoss);
  stats[s + 1u] = w * H;
  stats[s + 2u] = w * (ratio - 1.0 - logRatio);
  stats[s + 3u] = w * select(0.0, 1.0, ratio < 1.0 - p.epsLow);
  stats[s + 4u] = w * select(0.0, 1.0, ratio > 1.0 + p.epsHigh);
  stats[s + 5u] = w * select(0.0, 1.0, clipActive && adv < 0.0);
  stats[s + 6u] = w * select(0.0, 1.0, clipActive && adv > 0.0);
}`,
};

export const ppoValueLossKernel: KernelSource = {
  key: 'ppo_value_loss',
  bindings: ['read', 'read', 'write', 'write'],
  params: 'uuuuuuff',
  code: /* wgsl */ `
struct P { rows: u32, vOff: u32, bOff: u32, dOff: u32, sOff: u32, useClip: u32, clipCoef: f32, vfCoef: f32 }
@group(0) @binding(0) var<storage, read> V: array<f32>;
@group(0) @binding(1) var<storage, read> batch: array<f32>;
@group(0) @binding(2) var<storage, read_write> dV: array<f32>;
@group(0) @binding(3) var<storage, read_write> stats: array<f32>;
@group(0) @binding(4) var<uniform> p: P;
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let r = linear_index(gid, nwg);
  if (r >= p.rows) { return; }
  let b = p.bOff + r * 6u;
  let ret = batch[b + 3u];
  let w = batch[b + 5u];
  let v = V[p.vOff + r];
  let unclipped = (v - ret) * (v - ret);
  var loss = unclipped;
  var grad = v - ret;
  if (p.useClip != 0u) {
    let oldV = batch[b + 4u];
    let delta = v - oldV;
    let vClipped = oldV + clamp(delta, -p.clipCoef, p.clipCoef);
    let clipped = (vClipped - ret) * (vClipped - ret);
    if (clipped > unclipped) {
      loss = clipped;
      grad = select(0.0, vClipped - ret, abs(delta) < p.clipCoef);
    }
  }
  stats[p.sOff + r] = w * 0.5 * loss;
  dV[p.dOff + r] = w * p.vfCoef * grad;
}`,
};

export const SUM_SQUARES_WG = 256;

export const sumSquaresKernel: KernelSource = {
  key: 'sum_squares',
  bindings: ['read', 'write'],
  params: 'uuuu',
  code: /* wgsl */ `
struct P { n: u32, xOff: u32, outOff: u32, accumulate: u32 }
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> p: P;
var<workgroup> partial: array<f32, ${SUM_SQUARES_WG}>;
@compute @workgroup_size(${SUM_SQUARES_WG}) fn main(@builtin(local_invocation_index) li: u32) {
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
}`,
};

/** Indices must match OptState in backend.ts. */
export const adamPrepareKernel: KernelSource = {
  key: 'adam_prepare',
  bindings: ['write'],
  params: 'u',
  code: /* wgsl */ `
struct P { off: u32 }
@group(0) @binding(0) var<storage, read_write> S: array<f32>;
@group(0) @binding(1) var<uniform> p: P;
@compute @workgroup_size(1) fn main() {
  S[p.off + 5u] = S[p.off + 5u] + 1.0;
  let norm = sqrt(S[p.off + 7u]);
  S[p.off + 8u] = norm;
  let maxNorm = S[p.off + 4u];
  var scale = 1.0;
  if (maxNorm > 0.0) { scale = min(maxNorm / (norm + 1e-6), 1.0); }
  S[p.off + 6u] = scale;
}`,
};

export const adamUpdateKernel: KernelSource = {
  key: 'adam_update',
  bindings: ['read', 'read', 'write', 'write', 'write'],
  params: 'uuuuuu',
  code: /* wgsl */ `
struct P { n: u32, gOff: u32, sOff: u32, pOff: u32, mOff: u32, vOff: u32 }
@group(0) @binding(0) var<storage, read> G: array<f32>;
@group(0) @binding(1) var<storage, read> S: array<f32>;
@group(0) @binding(2) var<storage, read_write> Pm: array<f32>;
@group(0) @binding(3) var<storage, read_write> M: array<f32>;
@group(0) @binding(4) var<storage, read_write> V: array<f32>;
@group(0) @binding(5) var<uniform> p: P;
${linearIndex}
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = linear_index(gid, nwg);
  if (i >= p.n) { return; }
  let lr = S[p.sOff + 0u];
  let b1 = S[p.sOff + 1u];
  let b2 = S[p.sOff + 2u];
  let eps = S[p.sOff + 3u];
  let t = S[p.sOff + 5u];
  let g = G[p.gOff + i] * S[p.sOff + 6u];
  let m = b1 * M[p.mOff + i] + (1.0 - b1) * g;
  let v = b2 * V[p.vOff + i] + (1.0 - b2) * g * g;
  M[p.mOff + i] = m;
  V[p.vOff + i] = v;
  let stepSize = lr / (1.0 - pow(b1, t));
  let sqrtBias2 = sqrt(1.0 - pow(b2, t));
  Pm[p.pOff + i] = Pm[p.pOff + i] - stepSize * m / (sqrt(v) / sqrtBias2 + eps);
}`,
};
