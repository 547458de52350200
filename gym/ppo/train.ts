import type { ActionSet } from '../actions';
import { ActorCritic, type NetworkSpec } from '../nn/actor-critic';
import { Adam } from '../nn/adam';
import type { Backend } from '../nn/backend';
import { createBackend, type BackendChoice } from '../nn/factory';
import { Rng } from '../random/rng';
import { ActingSession } from './acting';
import { requireBlob, type Checkpoint, type CheckpointHeader } from './checkpoint';
import { clipRange, parsePpoConfig, type PpoConfig, type PpoConfigInput } from './config';
import { EpisodeWindow } from './episode-window';
import { computeGae, episodeLengths, lengthAdaptiveLambdas, valueTargets } from './gae';
import { PpoLearner, type LossStats } from './learner';
import { encoderFor, resolveNetworkSpec } from './obs-encoder';
import { PolicyAgent } from './policy-agent';
import { RolloutCollector, type Rollout, type TrainingEnv } from './rollout';
import { SeedStream, deriveSeed } from './seeds';
import { explainedVariance, finiteOrNull, mean, pearson, standardize } from './stats';
import { policyUpdateMetrics, type TrainerMetrics, type TrainerOptions } from './trainer-options';

/** One JSONL line per update (pretraining iterations included, with phase 'value-pretrain'). */
export interface UpdateMetrics extends TrainerMetrics {
  algorithm: 'ppo';
  phase: 'value-pretrain' | 'ppo';
  /** PPO update index (1-based; 0 during value pretraining). */
  update: number;
  /** Pretraining iteration (1-based) in the 'value-pretrain' phase, else null. */
  pretrainIteration: number | null;
  /** Env steps so far (numEnvs × steps per rollout, pretraining included). */
  globalStep: number;
  valueLoss: number | null;
  /** Of the rollout's values against the critic targets. */
  explainedVariance: number | null;
  valuePearson: number | null;
  lambdaPolicyMean: number;
  episodesTotal: number;
  epochsRun: number;
  rolloutSeconds: number;
  updateSeconds: number;
}

export interface TrainOptions extends TrainerOptions<PpoConfigInput, UpdateMetrics> {
  /** Continue a run from a training checkpoint (its config is used unless `config` is given). */
  resumeFrom?: Checkpoint;
  /** What the env's actions are when they are not the game's preset keys (macro decisions): written to the checkpoints and the policy. */
  actions?: ActionSet;
}

export interface TrainResult {
  config: PpoConfig;
  metrics: UpdateMetrics[];
  globalStep: number;
  updates: number;
  stoppedBy: 'budget' | 'stopWhen';
  backend: Backend;
  network: NetworkSpec;
  /** Greedy agent on the trained parameters. */
  agent: PolicyAgent;
  /** A training checkpoint of the final state (what the writer got last). */
  checkpoint(): Promise<Checkpoint>;
}

/** Everything that evolves during a run; checkpoints are snapshots of it. */
class PpoRun {
  readonly spec: NetworkSpec;
  readonly net: ActorCritic;
  readonly adam: Adam;
  readonly learner: PpoLearner;
  readonly collector: RolloutCollector;
  readonly window: EpisodeWindow;
  readonly samplingSeed: number;
  shuffleRng: Rng;
  update = 0;
  globalStep = 0;
  pretrainIterations = 0;
  pretrainDone = false;
  readonly batchSize: number;
  readonly minibatchSize: number;
  readonly numUpdates: number;
  private readonly started = Date.now();

  constructor(
    readonly cfg: PpoConfig,
    readonly backend: Backend,
    readonly env: TrainingEnv,
    readonly obsShape: readonly number[],
    readonly numActions: number,
    /** False when a checkpoint will overwrite the parameters anyway. */
    initialize: boolean,
    readonly actions: ActionSet | undefined,
  ) {
    this.spec = resolveNetworkSpec(obsShape, numActions, cfg.network);
    this.net = new ActorCritic(backend, this.spec, initialize ? cfg.seed : null);
    this.adam = new Adam(backend, this.net.store, {
      lr: cfg.learningRate,
      beta1: cfg.adamBeta1,
      beta2: cfg.adamBeta2,
      eps: cfg.adamEps,
      maxGradNorm: cfg.maxGradNorm,
    });
    this.batchSize = cfg.numSteps * env.numEnvs;
    this.minibatchSize = Math.ceil(this.batchSize / cfg.numMinibatches);
    this.numUpdates = Math.floor(cfg.totalTimesteps / this.batchSize);
    if (this.numUpdates < 1) {
      throw new Error(`totalTimesteps (${cfg.totalTimesteps}) is less than one rollout (numSteps ${cfg.numSteps} × ${env.numEnvs} envs = ${this.batchSize})`);
    }
    this.learner = new PpoLearner(this.net, this.adam, this.batchSize, this.minibatchSize, cfg.updateEpochs);
    this.samplingSeed = deriveSeed(cfg.seed, SeedStream.sampling);
    this.shuffleRng = new Rng(deriveSeed(cfg.seed, SeedStream.shuffle));
    const acting = new ActingSession(this.net, env.numEnvs, this.samplingSeed);
    this.collector = new RolloutCollector(env, encoderFor(obsShape, cfg.network), acting, cfg, cfg.maskActions);
    this.window = new EpisodeWindow(cfg.episodeWindow);
  }

  get elapsedSeconds(): number {
    return (Date.now() - this.started) / 1000;
  }

  /** λ per step for the policy's advantages, and the critic's λ. */
  private lambdas(r: Rollout): { policy: number | Float32Array; critic: number } {
    const c = this.cfg;
    const critic = c.decoupledGae.enabled ? c.decoupledGae.lambdaCritic : c.gaeLambda;
    if (c.lengthAdaptiveGae.enabled) {
      const lengths = episodeLengths({ ...r, startLengths: r.startLengths });
      return { policy: lengthAdaptiveLambdas(lengths, c.lengthAdaptiveGae.alpha, c.lengthAdaptiveGae.minLambda), critic };
    }
    return { policy: c.decoupledGae.enabled ? c.decoupledGae.lambdaPolicy : c.gaeLambda, critic };
  }

  private recordEpisodes(r: Rollout): void {
    for (const ep of r.episodes) this.window.push(ep.return, ep.length);
  }

  private metrics(
    phase: UpdateMetrics['phase'],
    lr: number,
    loss: LossStats,
    r: Rollout,
    targets: Float32Array,
    lambdaPolicy: number | Float32Array,
    rolloutSeconds: number,
    updateSeconds: number,
  ): UpdateMetrics {
    const valid = r.valid;
    const lam = typeof lambdaPolicy === 'number' ? lambdaPolicy : mean(Array.from(lambdaPolicy).filter((_, i) => valid[i]));
    return {
      algorithm: 'ppo',
      phase,
      update: this.update,
      pretrainIteration: phase === 'value-pretrain' ? this.pretrainIterations : null,
      globalStep: this.globalStep,
      learningRate: lr,
      policyLoss: finiteOrNull(loss.policyLoss),
      valueLoss: finiteOrNull(loss.valueLoss),
      ...policyUpdateMetrics(loss),
      explainedVariance: finiteOrNull(explainedVariance(r.values, targets, valid)),
      valuePearson: finiteOrNull(pearson(r.values, targets, valid)),
      lambdaPolicyMean: lam,
      episodeReturnMean: this.window.meanReturn(),
      episodeLengthMean: this.window.meanLength(),
      episodesWindow: this.window.returns.length,
      episodesThisUpdate: r.episodes.length,
      failedResets: r.failedResets.steps,
      failedResetCause: r.failedResets.lastCause,
      episodesTotal: this.window.total,
      epochsRun: loss.epochs,
      stepsPerSec: (r.numSteps * r.numEnvs) / Math.max(1e-9, rolloutSeconds + updateSeconds),
      rolloutSeconds,
      updateSeconds,
      elapsedSeconds: this.elapsedSeconds,
    };
  }

  /** One critic-only iteration on λ = 1 (Monte-Carlo) returns of the fixed initial policy; sets pretrainDone. */
  async pretrainIteration(): Promise<UpdateMetrics> {
    const c = this.cfg;
    const t0 = performance.now();
    const r = await this.collector.collect(c.numSteps);
    const t1 = performance.now();
    this.globalStep += this.batchSize;
    this.pretrainIterations++;
    this.recordEpisodes(r);
    const targets = valueTargets(computeGae({ ...r, gamma: c.gamma, lambda: 1 }), r.values);
    this.adam.setLearningRate(c.learningRate);
    const loss = await this.learner.update(
      {
        n: this.batchSize,
        obs: r.obs,
        actions: r.actions,
        logProbs: r.logProbs,
        advantages: new Float32Array(this.batchSize),
        returns: targets,
        values: r.values,
        valid: r.valid,
        masks: r.masks,
      },
      // Plain squared error: the ±clipCoef value clip would hold a fresh critic near its initial outputs.
      { ...this.hyper({ trainPolicy: false, trainValue: true }), valueClip: null },
      this.shuffleRng,
    );
    const m = this.metrics('value-pretrain', c.learningRate, loss, r, targets, 1, (t1 - t0) / 1000, (performance.now() - t1) / 1000);
    const p = c.valuePretrain;
    const converged =
      m.explainedVariance !== null &&
      m.explainedVariance >= p.minExplainedVariance &&
      (p.maxValueLoss === null || (m.valueLoss !== null && m.valueLoss <= p.maxValueLoss));
    if (converged || this.pretrainIterations >= p.maxIterations) {
      this.pretrainDone = true;
      this.adam.reset(); // PPO starts with fresh Adam moments
    }
    return m;
  }

  private hyper(heads: { trainPolicy: boolean; trainValue: boolean }) {
    const c = this.cfg;
    return {
      epochs: c.updateEpochs,
      minibatchSize: this.minibatchSize,
      ...clipRange(c),
      entCoef: c.entCoef,
      vfCoef: c.vfCoef,
      valueClip: c.clipVloss ? c.clipCoef : null,
      targetKl: c.targetKl,
      ...heads,
    };
  }

  async ppoUpdate(): Promise<UpdateMetrics> {
    const c = this.cfg;
    this.update++;
    // CleanRL anneals from the full rate at update 1 towards 0 after the last update.
    const lr = c.annealLr ? (1 - (this.update - 1) / this.numUpdates) * c.learningRate : c.learningRate;
    this.adam.setLearningRate(lr);
    const t0 = performance.now();
    const r = await this.collector.collect(c.numSteps);
    const t1 = performance.now();
    this.globalStep += this.batchSize;
    this.recordEpisodes(r);
    const lam = this.lambdas(r);
    const advantages = computeGae({ ...r, gamma: c.gamma, lambda: lam.policy });
    const criticAdvantages =
      typeof lam.policy === 'number' && lam.policy === lam.critic ? advantages : computeGae({ ...r, gamma: c.gamma, lambda: lam.critic });
    const targets = valueTargets(criticAdvantages, r.values);
    const policyAdvantages = Float32Array.from(advantages);
    if (c.normAdv) standardize(policyAdvantages, r.valid);
    const loss = await this.learner.update(
      {
        n: this.batchSize,
        obs: r.obs,
        actions: r.actions,
        logProbs: r.logProbs,
        advantages: policyAdvantages,
        returns: targets,
        values: r.values,
        valid: r.valid,
        masks: r.masks,
      },
      this.hyper({ trainPolicy: true, trainValue: true }),
      this.shuffleRng,
    );
    return this.metrics('ppo', lr, loss, r, targets, lam.policy, (t1 - t0) / 1000, (performance.now() - t1) / 1000);
  }

  async snapshot(): Promise<Checkpoint> {
    const params = await this.backend.read(this.net.store.params);
    const opt = await this.adam.snapshot();
    const col = this.collector.getState();
    const c = this.cfg;
    const header: CheckpointHeader = {
      format: 'arcade-gym-checkpoint',
      version: 1,
      kind: 'training',
      algorithm: 'ppo',
      createdAt: new Date().toISOString(),
      config: c as unknown as Record<string, unknown>,
      network: this.spec,
      obsShape: [...this.obsShape],
      numActions: this.numActions,
      paramLayout: this.net.store.entries,
      progress: { update: this.update, globalStep: this.globalStep, valuePretrainIterations: this.pretrainIterations, valuePretrainDone: this.pretrainDone },
      optimizer: { type: 'adam', step: opt.step, beta1: c.adamBeta1, beta2: c.adamBeta2, eps: c.adamEps, maxGradNorm: c.maxGradNorm },
      rng: { shuffle: this.shuffleRng.getState(), samplingSeed: this.samplingSeed },
      collector: {
        pendingReset: col.pendingReset,
        episodeReturn: col.episodeReturn,
        episodeLength: col.episodeLength,
        samplingCounter: col.samplingCounter,
        recentReturns: [...this.window.returns],
        recentLengths: [...this.window.lengths],
        episodesTotal: this.window.total,
      },
      env: this.env.getState?.() ?? null,
      normalization: this.collector.wrappers.getNormalization(),
      ...(this.actions ? { actions: this.actions } : {}),
      blobs: [],
    };
    const blobs = new Map<string, Float32Array>([
      ['params', params],
      ['adam.m', opt.m],
      ['adam.v', opt.v],
      ['collector.obs', col.obs],
      ...(col.masks ? ([['collector.masks', col.masks]] as const) : []),
    ]);
    return { header, blobs };
  }

  /** Restores a training checkpoint. Returns false when the env state could not be restored. */
  restore(ckpt: Checkpoint): boolean {
    const h = ckpt.header;
    if (h.kind !== 'training' || h.algorithm !== 'ppo') throw new Error(`cannot resume PPO from a ${h.algorithm} ${h.kind} checkpoint`);
    if (JSON.stringify(h.network) !== JSON.stringify(this.spec)) throw new Error('checkpoint network does not match the configured network');
    if (!h.progress || !h.optimizer || !h.rng || !h.collector) throw new Error('training checkpoint is missing progress/optimizer/rng/collector state');
    this.backend.write(this.net.store.params, requireBlob(ckpt, 'params', this.net.store.size));
    this.adam.restore({ step: h.optimizer.step, m: requireBlob(ckpt, 'adam.m', this.net.store.size), v: requireBlob(ckpt, 'adam.v', this.net.store.size) });
    this.shuffleRng = Rng.fromState(h.rng.shuffle);
    this.update = h.progress.update;
    this.globalStep = h.progress.globalStep;
    this.pretrainIterations = h.progress.valuePretrainIterations;
    this.pretrainDone = h.progress.valuePretrainDone;
    this.window.returns = [...h.collector.recentReturns];
    this.window.lengths = [...h.collector.recentLengths];
    this.window.total = h.collector.episodesTotal;
    this.collector.acting.counter = h.collector.samplingCounter;
    this.collector.wrappers.setNormalization(h.normalization);
    if (h.env !== null && h.env !== undefined && this.env.setState) {
      try {
        this.env.setState(h.env);
      } catch (e) {
        // An env whose state format changed since the checkpoint (or another env): start its episodes afresh.
        console.warn(`[ppo] the checkpoint's env state does not fit this env (${e instanceof Error ? e.message : String(e)}).`);
        return false;
      }
      const masks = ckpt.blobs.get('collector.masks');
      this.collector.setState({ ...h.collector, obs: requireBlob(ckpt, 'collector.obs'), ...(masks ? { masks } : {}) });
      return true;
    }
    return false;
  }
}

async function resolveBackend(b: Backend | BackendChoice | undefined): Promise<Backend> {
  return typeof b === 'object' ? b : createBackend(b ?? 'auto');
}

/**
 * PPO (CleanRL's ppo.py structure) with the UI-TARS-2 switches from the config:
 * [value pretraining] → repeat { rollout → GAE → epochs × minibatches on the device }.
 */
export async function train(opts: TrainOptions): Promise<TrainResult> {
  const resume = opts.resumeFrom ?? null;
  const cfg = parsePpoConfig(opts.config ?? resume?.header.config ?? {});
  const backend = await resolveBackend(opts.backend);
  const run = new PpoRun(cfg, backend, opts.env, opts.obsShape, opts.numActions, resume === null, opts.actions ?? resume?.header.actions);
  const writer = opts.writer ?? {};

  let envRestored = false;
  if (resume) envRestored = run.restore(resume);
  if (!envRestored) {
    if (resume) console.warn('[ppo] the env has no getState/setState; resuming with freshly reset envs (running episodes are lost).');
    // Gymnasium convention: env i is seeded with seed + i. A resumed run gets a seed of its own.
    await run.collector.reset(cfg.seed + run.update * cfg.resumeResetSeedStride);
  }

  const metrics: UpdateMetrics[] = [];
  let stoppedBy: TrainResult['stoppedBy'] = 'budget';
  const saveCheckpoint = async () => {
    if (writer.checkpoint) await writer.checkpoint(await run.snapshot());
  };
  const report = async (m: UpdateMetrics): Promise<boolean> => {
    metrics.push(m);
    await writer.metrics?.(m);
    await opts.onUpdate?.(m);
    return opts.stopWhen?.(m) ?? false;
  };

  let stop = false;
  if (cfg.valuePretrain.enabled) {
    while (!run.pretrainDone && !stop) stop = await report(await run.pretrainIteration());
  }
  while (!stop && run.update < run.numUpdates) {
    stop = await report(await run.ppoUpdate());
    if (stop) stoppedBy = 'stopWhen';
    if (cfg.checkpointEvery > 0 && run.update % cfg.checkpointEvery === 0) await saveCheckpoint();
  }
  if (stop) stoppedBy = 'stopWhen';
  await saveCheckpoint();
  const agent = new PolicyAgent(
    run.net,
    encoderFor(opts.obsShape, cfg.network),
    {},
    { algorithm: 'ppo', config: cfg, ...(run.actions ? { actions: run.actions } : {}) },
    run.collector.wrappers.getNormalization().observation ?? null,
  );
  await writer.policy?.(agent);
  return {
    config: cfg,
    metrics,
    globalStep: run.globalStep,
    updates: run.update,
    stoppedBy,
    backend,
    network: run.spec,
    agent,
    checkpoint: () => run.snapshot(),
  };
}
