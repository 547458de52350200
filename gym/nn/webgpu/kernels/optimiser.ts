// Field indices come from OptState, the layout the CPU backend and Adam read too.
import { OptState } from '../../backend';
import { defineKernel } from './define';

/** A single invocation: increments the step and turns gradSumSq into gradNorm and the clip scale. */
export const adamPrepareKernel = defineKernel({
  name: 'adam_prepare',
  params: { off: 'u32' },
  bindings: { S: 'read_write' },
  grid: { workgroupSize: 1, builtins: [] },
  body: /* wgsl */ `
  S[p.off + ${OptState.step}u] = S[p.off + ${OptState.step}u] + 1.0;
  let norm = sqrt(S[p.off + ${OptState.gradSumSq}u]);
  S[p.off + ${OptState.gradNorm}u] = norm;
  let maxNorm = S[p.off + ${OptState.maxGradNorm}u];
  var scale = 1.0;
  if (maxNorm > 0.0) { scale = min(maxNorm / (norm + 1e-6), 1.0); }
  S[p.off + ${OptState.clipScale}u] = scale;
`,
});

/** One invocation per parameter: Adam with the clip scale applied to the gradient. */
export const adamUpdateKernel = defineKernel({
  name: 'adam_update',
  params: { n: 'u32', gOff: 'u32', sOff: 'u32', pOff: 'u32', mOff: 'u32', vOff: 'u32' },
  bindings: { G: 'read', S: 'read', Pm: 'read_write', M: 'read_write', V: 'read_write' },
  grid: '1d',
  body: /* wgsl */ `
  let i = linear_index(gid, nwg);
  if (i >= p.n) { return; }
  let lr = S[p.sOff + ${OptState.lr}u];
  let b1 = S[p.sOff + ${OptState.beta1}u];
  let b2 = S[p.sOff + ${OptState.beta2}u];
  let eps = S[p.sOff + ${OptState.eps}u];
  let t = S[p.sOff + ${OptState.step}u];
  let g = G[p.gOff + i] * S[p.sOff + ${OptState.clipScale}u];
  let m = b1 * M[p.mOff + i] + (1.0 - b1) * g;
  let v = b2 * V[p.vOff + i] + (1.0 - b2) * g * g;
  M[p.mOff + i] = m;
  V[p.vOff + i] = v;
  let stepSize = lr / (1.0 - pow(b1, t));
  let sqrtBias2 = sqrt(1.0 - pow(b2, t));
  Pm[p.pOff + i] = Pm[p.pOff + i] - stepSize * m / (sqrt(v) / sqrtBias2 + eps);
`,
});
