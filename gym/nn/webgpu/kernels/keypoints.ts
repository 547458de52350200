import { defineKernel } from './define';

/**
 * The spatial soft-argmax of one map per invocation: maps are a few hundred pixels, and a
 * batch holds B·C of them, enough invocations to fill the device without workgroup memory.
 * `kp_stats` returns (max, Σ exp(x − max), ū, v̄) of the map starting at `base`; coordinates
 * match keypointCoordinate in backend.ts (−1 at the first pixel, +1 at the last).
 */
const keypointMathWgsl = /* wgsl */ `
fn kp_coord(i: u32, size: u32) -> f32 {
  if (size == 1u) { return 0.0; }
  return 2.0 * f32(i) / f32(size - 1u) - 1.0;
}
fn kp_stats(base: u32) -> vec4f {
  let plane = p.H * p.W;
  var m = -3.0e38;
  for (var k = 0u; k < plane; k++) { m = max(m, X[base + k]); }
  var s = 0.0;
  var su = 0.0;
  var sv = 0.0;
  for (var i = 0u; i < p.H; i++) {
    let v = kp_coord(i, p.H);
    for (var j = 0u; j < p.W; j++) {
      let e = exp(X[base + i * p.W + j] - m);
      s += e;
      su += e * kp_coord(j, p.W);
      sv += e * v;
    }
  }
  return vec4f(m, s, su / s, sv / s);
}`;

export const spatialSoftmaxKernel = defineKernel({
  name: 'spatial_softmax',
  params: { maps: 'u32', H: 'u32', W: 'u32', xOff: 'u32', outOff: 'u32' },
  bindings: { X: 'read', out: 'read_write' },
  grid: '1d',
  wgsl: [keypointMathWgsl],
  body: /* wgsl */ `
  let m = linear_index(gid, nwg);
  if (m >= p.maps) { return; }
  let st = kp_stats(p.xOff + m * p.H * p.W);
  out[p.outOff + 2u * m] = st.z;
  out[p.outOff + 2u * m + 1u] = st.w;
`,
});

export const spatialSoftmaxBackwardKernel = defineKernel({
  name: 'spatial_softmax_backward',
  params: { maps: 'u32', H: 'u32', W: 'u32', xOff: 'u32', dyOff: 'u32', dxOff: 'u32' },
  bindings: { X: 'read', DY: 'read', DX: 'read_write' },
  grid: '1d',
  wgsl: [keypointMathWgsl],
  body: /* wgsl */ `
  let m = linear_index(gid, nwg);
  if (m >= p.maps) { return; }
  let plane = p.H * p.W;
  let base = p.xOff + m * plane;
  let st = kp_stats(base);
  let dU = DY[p.dyOff + 2u * m];
  let dV = DY[p.dyOff + 2u * m + 1u];
  for (var i = 0u; i < p.H; i++) {
    let v = kp_coord(i, p.H) - st.w;
    for (var j = 0u; j < p.W; j++) {
      let k = i * p.W + j;
      let prob = exp(X[base + k] - st.x) / st.y;
      DX[p.dxOff + m * plane + k] = prob * ((kp_coord(j, p.W) - st.z) * dU + v * dV);
    }
  }
`,
});
