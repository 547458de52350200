import { HASH_WGSL } from '../../hash-rng';
import { defineKernel } from './define';

/** Row-wise helpers of the softmax-family kernels: row r of logits Z starts at `base`. */
export const rowMathWgsl = /* wgsl */ `
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

/** A kernel with one invocation per row r of logits Z, writing `out`; the body starts with r, base and lse. */
function rowKernel(name: string, body: string) {
  return defineKernel({
    name,
    params: { rows: 'u32', cols: 'u32', zOff: 'u32', outOff: 'u32' },
    bindings: { Z: 'read', out: 'read_write' },
    grid: '1d',
    wgsl: [rowMathWgsl],
    body: /* wgsl */ `
  let r = linear_index(gid, nwg);
  if (r >= p.rows) { return; }
  let base = p.zOff + r * p.cols;
  let lse = row_lse(base, p.cols);${body}`,
  });
}

export const logSoftmaxKernel = rowKernel(
  'log_softmax',
  /* wgsl */ `
  for (var j = 0u; j < p.cols; j++) { out[p.outOff + r * p.cols + j] = Z[base + j] - lse; }
`,
);

export const entropyKernel = rowKernel(
  'entropy',
  /* wgsl */ `
  out[p.outOff + r] = row_entropy(base, p.cols, lse);
`,
);

/** One invocation per row: inverse CDF with the counter-based hash uniform, so the CPU backend draws the same actions. */
export const sampleCategoricalKernel = defineKernel({
  name: 'sample_categorical',
  params: { rows: 'u32', cols: 'u32', zOff: 'u32', aOff: 'u32', lOff: 'u32', seed: 'u32', counter: 'u32' },
  bindings: { Z: 'read', actions: 'read_write', logProbs: 'read_write' },
  grid: '1d',
  wgsl: [HASH_WGSL, rowMathWgsl],
  body: /* wgsl */ `
  let r = linear_index(gid, nwg);
  if (r >= p.rows) { return; }
  let base = p.zOff + r * p.cols;
  let lse = row_lse(base, p.cols);
  let u = hash_uniform(p.seed, p.counter, r);
  // Rounding can leave the total CDF a hair below u: then the last action of nonzero probability (never a masked one).
  var action = p.cols - 1u;
  var cdf = 0.0;
  for (var j = 0u; j < p.cols; j++) {
    let pj = exp(Z[base + j] - lse);
    if (pj > 0.0) { action = j; }
    cdf += pj;
    if (u < cdf) { action = j; break; }
  }
  actions[p.aOff + r] = f32(action);
  logProbs[p.lOff + r] = Z[base + action] - lse;
`,
});
