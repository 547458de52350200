import type { Activation } from '../../backend';
import { defineKernel } from './define';
import { activationWgsl } from './elementwise';

/**
 * The geometry every convolution kernel receives first: batch N, channels C, input H×W, output
 * channels O, kernel K, stride S, output OH×OW. The tensor offsets follow.
 */
export const CONV_GEOMETRY = { N: 'u32', C: 'u32', H: 'u32', W: 'u32', O: 'u32', K: 'u32', S: 'u32', OH: 'u32', OW: 'u32' } as const;

/**
 * Each invocation computes 4 horizontally adjacent output pixels × 4 output channels.
 * vec4: outChannels and the weight offset are multiples of 4, so the 4 weights of a tap are one vec4 load.
 */
export function conv2dKernel(act: Activation, bias: boolean, vec4: boolean) {
  return defineKernel({
    name: `conv2d:${act}:${bias ? 'b' : '-'}:${vec4 ? 'v4' : 's'}`,
    params: { ...CONV_GEOMETRY, xOff: 'u32', wOff: 'u32', biasOff: 'u32', yOff: 'u32' },
    bindings: { X: 'read', Wt: { access: 'read', element: vec4 ? 'vec4f' : 'f32' }, bias: 'read', Y: 'read_write' },
    grid: '1d',
    wgsl: [activationWgsl(act)],
    body: /* wgsl */ `
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
      let xRow = p.xOff + ((n * p.C + c) * p.H + oy * p.S + ky) * p.W;
      let xi = vec4u(xRow) + oxs * p.S;
      let wRow = p.wOff + ((c * p.K + ky) * p.K) * p.O;
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
      Y[p.yOff + ((n * p.O + o) * p.OH + oy) * p.OW + ox] = act(accs[px][j]${bias ? ' + bias[p.biasOff + o]' : ''});
    }
  }
`,
  });
}

/**
 * One invocation per input pixel and 4 input channels: gathers the output gradients whose
 * windows read the pixel (each dy value is reused for the 4 channels).
 */
export function conv2dBackwardInputKernel(vec4: boolean) {
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
  return defineKernel({
    name: `conv2d_backward_input:${vec4 ? 'v4' : 's'}`,
    params: { ...CONV_GEOMETRY, dyOff: 'u32', wOff: 'u32', dxOff: 'u32' },
    bindings: { DY: 'read', Wt: { access: 'read', element: vec4 ? 'vec4f' : 'f32' }, DX: 'read_write' },
    grid: '1d',
    body: /* wgsl */ `
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
      let wi = vec4u(p.wOff) + (cs * kk + vec4u(ky * p.K + kx)) * p.O;
      var di = p.dyOff + n * p.O * plane + oy * p.OW + ox;
      ${inner}
    }
  }
  let hw = p.H * p.W;
  let base = p.dxOff + ((n * p.C + c0) * p.H + y) * p.W + x;
  for (var j = 0u; j < 4u; j++) {
    if (c0 + j >= p.C) { break; }
    DX[base + j * hw] = acc[j];
  }
`,
  });
}

/**
 * Each invocation computes 4 weight rows (channel, ky, kx) × 4 output channels.
 */
export const conv2dBackwardWeightKernel = defineKernel({
  name: 'conv2d_backward_weight',
  params: { ...CONV_GEOMETRY, dyOff: 'u32', xOff: 'u32', dwOff: 'u32' },
  bindings: { DY: 'read', X: 'read', DW: 'read_write' },
  grid: '1d',
  wgsl: [
    /* wgsl */ `
fn row_base(r: u32) -> u32 {
  // Offset of input pixel (c, ky, kx) relative to the window origin of image 0.
  let kx = r % p.K;
  let ky = (r / p.K) % p.K;
  let c = r / (p.K * p.K);
  return (c * p.H + ky) * p.W + kx;
}`,
  ],
  body: /* wgsl */ `
  let R = p.C * p.K * p.K;
  let oBlocks = (p.O + 3u) / 4u;
  let id = linear_index(gid, nwg);
  if (id >= ((R + 3u) / 4u) * oBlocks) { return; }
  let o0 = (id % oBlocks) * 4u;
  let r0 = (id / oBlocks) * 4u;
  let rs = min(vec4u(r0) + vec4u(0u, 1u, 2u, 3u), vec4u(R - 1u));
  let xb = vec4u(p.xOff) + vec4u(row_base(rs.x), row_base(rs.y), row_base(rs.z), row_base(rs.w));
  let os = min(vec4u(o0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.O - 1u));
  let plane = p.OH * p.OW;
  let image = p.C * p.H * p.W;
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  for (var n = 0u; n < p.N; n++) {
    let db = vec4u(p.dyOff + n * p.O * plane) + os * plane;
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
      DW[p.dwOff + r * p.O + o] = accs[i][j];
    }
  }
`,
});

/** One invocation per output channel: the sum of its dy over the batch and the output plane. */
export const conv2dBackwardBiasKernel = defineKernel({
  name: 'conv2d_backward_bias',
  params: { N: 'u32', O: 'u32', plane: 'u32', dyOff: 'u32', dbOff: 'u32' },
  bindings: { DY: 'read', DB: 'read_write' },
  grid: '1d',
  body: /* wgsl */ `
  let o = linear_index(gid, nwg);
  if (o >= p.O) { return; }
  var s = 0.0;
  for (var n = 0u; n < p.N; n++) {
    let base = p.dyOff + (n * p.O + o) * p.plane;
    for (var q = 0u; q < p.plane; q++) { s += DY[base + q]; }
  }
  DB[p.dbOff + o] = s;
`,
});
