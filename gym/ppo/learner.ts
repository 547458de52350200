import type { ActorCritic } from '../nn/actor-critic';
import type { Adam } from '../nn/adam';
import { POLICY_STATS_WIDTH, PPO_BATCH_WIDTH, PolicyStat, PpoBatchColumn, type Backend } from '../nn/backend';
import type { Rng } from '../random/rng';
import { makeView, type Tensor } from '../nn/tensor';

/** Samples handed to one update (n rows). */
export interface LearnerBatch {
  n: number;
  /** Encoded observations [n, inputSize]. */
  obs: Float32Array;
  actions: ArrayLike<number>;
  logProbs: ArrayLike<number>;
  advantages: ArrayLike<number>;
  returns: ArrayLike<number>;
  values: ArrayLike<number>;
  /** 0 marks rows to ignore (weight 0), e.g. next-step autoreset transitions. Default: all used. */
  valid?: ArrayLike<number>;
  /** Action masks [n, actions] of 0/1, as the actions were drawn under (absent: no masking). */
  masks?: Float32Array | null;
}

export interface LearnerHyper {
  epochs: number;
  /** Rows per minibatch; the last minibatch of an epoch is padded with zero-weight rows. */
  minibatchSize: number;
  epsLow: number;
  epsHigh: number;
  entCoef: number;
  vfCoef: number;
  /** null: unclipped value loss. */
  valueClip: number | null;
  targetKl: number | null;
  /** Which heads learn: PPO both, critic pretraining only the value, GRPO only the policy. */
  trainPolicy: boolean;
  trainValue: boolean;
}

export interface LossStats {
  policyLoss: number;
  valueLoss: number;
  entropy: number;
  approxKl: number;
  clipFracLow: number;
  clipFracHigh: number;
  clipActiveLow: number;
  clipActiveHigh: number;
  gradNorm: number;
  epochs: number;
  minibatches: number;
}

/** Column layout of the on-device metric accumulator. */
const M = { policy: 0, value: POLICY_STATS_WIDTH, gradNorm: POLICY_STATS_WIDTH + 1, width: POLICY_STATS_WIDTH + 2 } as const;

/**
 * The PPO update on the device. Per update the whole batch is uploaded once, with a dummy
 * zero-weight row at index `capacity` that pads the last minibatch. Every minibatch is then
 * gather → forward → fused loss+gradient kernels → backward → clipped Adam, all enqueued
 * without read-backs; per-sample stats are summed on the device and read once at the end.
 */
export class PpoLearner {
  private readonly obsAll: Tensor;
  private readonly batchAll: Tensor;
  private readonly indices: Tensor;
  private readonly obsMb: Tensor;
  private readonly batchMb: Tensor;
  private readonly dLogits: Tensor;
  private readonly dValues: Tensor;
  private readonly policyStats: Tensor;
  private readonly valueStats: Tensor;
  private readonly metrics: Tensor;
  private readonly backend: Backend;
  /** Made on the first masked batch: [capacity + 1, actions] (the dummy row all ones) and one minibatch of it. */
  private masks: { all: Tensor; mb: Tensor } | null = null;

  constructor(
    readonly net: ActorCritic,
    readonly adam: Adam,
    /** Most rows one update may hold. */
    readonly capacity: number,
    readonly minibatchSize: number,
    readonly maxEpochs: number,
  ) {
    const b = (this.backend = net.backend);
    const D = net.inputSize;
    const A = net.numActions;
    const mb = minibatchSize;
    this.obsAll = b.tensor([capacity + 1, D]);
    this.batchAll = b.tensor([capacity + 1, PPO_BATCH_WIDTH]);
    this.indices = b.tensor([maxEpochs * Math.ceil(capacity / mb) * mb]);
    this.obsMb = b.tensor([mb, D]);
    this.batchMb = b.tensor([mb, PPO_BATCH_WIDTH]);
    this.dLogits = b.tensor([mb, A]);
    this.dValues = b.tensor([mb, 1]);
    this.policyStats = b.tensor([mb, POLICY_STATS_WIDTH]);
    this.valueStats = b.tensor([mb, 1]);
    this.metrics = b.tensor([M.width]);
  }

  private upload(data: LearnerBatch, minibatchSize: number): void {
    const { n } = data;
    const D = this.net.inputSize;
    if (n > this.capacity) throw new Error(`batch of ${n} exceeds the learner capacity ${this.capacity}`);
    if (data.obs.length < n * D) throw new Error(`obs holds ${data.obs.length} values, need ${n * D}`);
    const rows = new Float32Array(n * PPO_BATCH_WIDTH);
    for (let i = 0; i < n; i++) {
      const o = i * PPO_BATCH_WIDTH;
      rows[o + PpoBatchColumn.action] = data.actions[i];
      rows[o + PpoBatchColumn.oldLogProb] = data.logProbs[i];
      rows[o + PpoBatchColumn.advantage] = data.advantages[i];
      rows[o + PpoBatchColumn.return] = data.returns[i];
      rows[o + PpoBatchColumn.oldValue] = data.values[i];
      rows[o + PpoBatchColumn.weight] = !data.valid || data.valid[i] ? 1 / minibatchSize : 0;
    }
    this.backend.write(this.obsAll, data.obs.subarray(0, n * D));
    this.backend.write(this.batchAll, rows);
    if (data.masks) {
      const A = this.net.numActions;
      if (data.masks.length < n * A) throw new Error(`masks hold ${data.masks.length} values, need ${n * A}`);
      if (!this.masks) {
        this.masks = { all: this.backend.tensor([this.capacity + 1, A]), mb: this.backend.tensor([this.minibatchSize, A]) };
        this.backend.fill(this.masks.all, 1);
      }
      this.backend.write(this.masks.all, data.masks.subarray(0, n * A));
    }
  }

  /** Minibatch index lists for every epoch, padded with the dummy row. */
  private shuffle(n: number, epochs: number, rng: Rng): { perEpoch: number } {
    const mb = this.minibatchSize;
    const perEpoch = Math.ceil(n / mb);
    const idx = new Float32Array(epochs * perEpoch * mb).fill(this.capacity);
    for (let e = 0; e < epochs; e++) {
      const perm = rng.permutation(n);
      for (let i = 0; i < n; i++) idx[e * perEpoch * mb + i] = perm[i];
    }
    this.backend.write(this.indices, idx);
    return { perEpoch };
  }

  async update(data: LearnerBatch, hp: LearnerHyper, rng: Rng): Promise<LossStats> {
    if (hp.minibatchSize !== this.minibatchSize) throw new Error(`learner was built for minibatches of ${this.minibatchSize}, got ${hp.minibatchSize}`);
    if (hp.epochs > this.maxEpochs) throw new Error(`learner was built for at most ${this.maxEpochs} epochs`);
    const b = this.backend;
    const mb = this.minibatchSize;
    this.upload(data, mb);
    const masked = !!data.masks;
    const { perEpoch } = this.shuffle(data.n, hp.epochs, rng);
    b.fill(this.metrics, 0);
    const policyMetrics = makeView(this.metrics, M.policy, [POLICY_STATS_WIDTH]);
    const valueMetric = makeView(this.metrics, M.value, [1]);
    const gradNormMetric = makeView(this.metrics, M.gradNorm, [1]);
    let minibatches = 0;
    let epochsRun = 0;
    let klBefore = 0;
    for (let epoch = 0; epoch < hp.epochs; epoch++) {
      for (let k = 0; k < perEpoch; k++) {
        const idx = makeView(this.indices, (epoch * perEpoch + k) * mb, [mb]);
        b.gatherRows(this.obsAll, idx, this.obsMb);
        b.gatherRows(this.batchAll, idx, this.batchMb);
        const { logits, values } = this.net.forward(this.obsMb);
        if (masked) {
          b.gatherRows(this.masks!.all, idx, this.masks!.mb);
          b.maskLogits(logits, this.masks!.mb);
        }
        if (hp.trainPolicy) {
          b.ppoPolicyLoss(logits, this.batchMb, this.dLogits, this.policyStats, { epsLow: hp.epsLow, epsHigh: hp.epsHigh, entCoef: hp.entCoef });
          b.sumRows(this.policyStats, policyMetrics, true);
        }
        if (hp.trainValue) {
          b.ppoValueLoss(values, this.batchMb, this.dValues, this.valueStats, { clipCoef: hp.valueClip, vfCoef: hp.vfCoef });
          b.sumRows(this.valueStats, valueMetric, true);
        }
        this.net.backward(hp.trainPolicy ? this.dLogits : null, hp.trainValue ? this.dValues : null);
        this.adam.step();
        b.sumRows(this.adam.gradNormView, gradNormMetric, true);
        minibatches++;
      }
      epochsRun++;
      if (hp.targetKl !== null && hp.trainPolicy) {
        // CleanRL-style early stop; the only read-back inside an update, and only when enabled.
        const m = await b.read(this.metrics);
        const klSum = m[M.policy + PolicyStat.approxKl];
        const epochKl = (klSum - klBefore) / perEpoch;
        klBefore = klSum;
        if (epochKl > hp.targetKl) break;
      }
    }
    const m = await b.read(this.metrics);
    const avg = (i: number) => m[i] / minibatches;
    return {
      policyLoss: hp.trainPolicy ? avg(M.policy + PolicyStat.loss) : NaN,
      entropy: hp.trainPolicy ? avg(M.policy + PolicyStat.entropy) : NaN,
      approxKl: hp.trainPolicy ? avg(M.policy + PolicyStat.approxKl) : NaN,
      clipFracLow: hp.trainPolicy ? avg(M.policy + PolicyStat.clipLow) : NaN,
      clipFracHigh: hp.trainPolicy ? avg(M.policy + PolicyStat.clipHigh) : NaN,
      clipActiveLow: hp.trainPolicy ? avg(M.policy + PolicyStat.activeLow) : NaN,
      clipActiveHigh: hp.trainPolicy ? avg(M.policy + PolicyStat.activeHigh) : NaN,
      valueLoss: hp.trainValue ? avg(M.value) : NaN,
      gradNorm: avg(M.gradNorm),
      epochs: epochsRun,
      minibatches,
    };
  }
}
