import { POLICY_STATS_WIDTH, PPO_BATCH_WIDTH, PolicyStat, PpoBatchColumn } from '../../backend';
import { defineKernel } from './define';
import { rowMathWgsl } from './softmax';

/** WGSL index expressions for the batch columns and stats columns of backend.ts (one source for both backends). */
const col = (name: keyof typeof PpoBatchColumn) => `b + ${PpoBatchColumn[name]}u`;
const stat = (name: keyof typeof PolicyStat) => `s + ${PolicyStat[name]}u`;

/** One invocation per row: the clipped policy loss with entropy bonus, d(loss)/d(logits) and the row's stats. */
export const ppoPolicyLossKernel = defineKernel({
  name: 'ppo_policy_loss',
  params: { rows: 'u32', cols: 'u32', zOff: 'u32', bOff: 'u32', dOff: 'u32', sOff: 'u32', epsLow: 'f32', epsHigh: 'f32', entCoef: 'f32' },
  bindings: { Z: 'read', batch: 'read', dZ: 'read_write', stats: 'read_write' },
  grid: '1d',
  wgsl: [rowMathWgsl],
  body: /* wgsl */ `
  let r = linear_index(gid, nwg);
  if (r >= p.rows) { return; }
  let b = p.bOff + r * ${PPO_BATCH_WIDTH}u;
  let action = u32(batch[${col('action')}]);
  let oldLogp = batch[${col('oldLogProb')}];
  let adv = batch[${col('advantage')}];
  let w = batch[${col('weight')}];
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
  let s = p.sOff + r * ${POLICY_STATS_WIDTH}u;
  stats[${stat('loss')}] = w * max(unclippedLoss, clippedLoss);
  stats[${stat('entropy')}] = w * H;
  stats[${stat('approxKl')}] = w * (ratio - 1.0 - logRatio);
  stats[${stat('clipLow')}] = w * select(0.0, 1.0, ratio < 1.0 - p.epsLow);
  stats[${stat('clipHigh')}] = w * select(0.0, 1.0, ratio > 1.0 + p.epsHigh);
  stats[${stat('activeLow')}] = w * select(0.0, 1.0, clipActive && adv < 0.0);
  stats[${stat('activeHigh')}] = w * select(0.0, 1.0, clipActive && adv > 0.0);
`,
});

/** One invocation per row: the (clipped) value loss and d(vfCoef·loss)/d(value); useClip 0 = plain squared error. */
export const ppoValueLossKernel = defineKernel({
  name: 'ppo_value_loss',
  params: { rows: 'u32', vOff: 'u32', bOff: 'u32', dOff: 'u32', sOff: 'u32', useClip: 'u32', clipCoef: 'f32', vfCoef: 'f32' },
  bindings: { V: 'read', batch: 'read', dV: 'read_write', stats: 'read_write' },
  grid: '1d',
  body: /* wgsl */ `
  let r = linear_index(gid, nwg);
  if (r >= p.rows) { return; }
  let b = p.bOff + r * ${PPO_BATCH_WIDTH}u;
  let ret = batch[${col('return')}];
  let w = batch[${col('weight')}];
  let v = V[p.vOff + r];
  let unclipped = (v - ret) * (v - ret);
  var loss = unclipped;
  var grad = v - ret;
  if (p.useClip != 0u) {
    let oldV = batch[${col('oldValue')}];
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
`,
});
