import { ActorCritic, type NetworkSpec } from '../nn/actor-critic';
import { Adam } from '../nn/adam';
import { createBackend } from '../nn/factory';
import { Rng } from '../random/rng';
import { ActingSession } from './acting';
import { parseGrpoConfig, type GrpoConfig, type GrpoConfigInput } from './config';
import { EpisodeWindow } from './episode-window';
import { PpoLearner } from './learner';
import { encoderFor, resolveNetworkSpec } from './obs-encoder';
import { PolicyAgent } from './policy-agent';
import { isResetOnly, resetFailureCause } from '../core/wrappers/wrapper';
import { TrainingWrappers, encodeBatch } from './rollout';
import { SeedStream, deriveSeed } from './seeds';
import { finiteOrNull, mean } from './stats';
import { policyUpdateMetrics, type TrainerMetrics, type TrainerOptions } from './trainer-options';

export interface GrpoMetrics extends TrainerMetrics {
  algorithm: 'grpo';
  /** Steps inside group episodes so far. */
  globalStep: number;
  /** Mean (shaped) return over this update's episodes, and the mean within-group std. */
  groupReturnMean: number;
  groupReturnStdMean: number;
  /** Groups whose episodes all scored the same (no learning signal). */
  zeroStdGroups: number;
  samples: number;
}

/** numEnvs must be a multiple of groupSize. */
export type GrpoOptions = TrainerOptions<GrpoConfigInput, GrpoMetrics>;

export interface GrpoResult {
  config: GrpoConfig;
  metrics: GrpoMetrics[];
  globalStep: number;
  updates: number;
  network: NetworkSpec;
  agent: PolicyAgent;
}

/**
 * Group-relative advantages (GRPO, DeepSeekMath): every episode's return standardised within
 * its group, Â = (R − mean_group) / (std_group + 1e-8), shared by all of its steps; 0 when
 * the group's returns are all equal. Population std, as in the reference implementation.
 * `included[e] = false` leaves episode e out of its group's statistics (its advantage is 0):
 * an env whose reset failed played no episode of the group's seed.
 */
export function groupAdvantages(returns: readonly number[], groupSize: number, included?: readonly boolean[]): number[] {
  if (returns.length % groupSize !== 0) throw new Error(`${returns.length} returns do not split into groups of ${groupSize}`);
  const out = new Array<number>(returns.length).fill(0);
  for (let g = 0; g < returns.length; g += groupSize) {
    const members = Array.from({ length: groupSize }, (_, i) => g + i).filter((e) => included?.[e] ?? true);
    if (members.length === 0) continue;
    const group = members.map((e) => returns[e]);
    const mu = mean(group);
    const sd = Math.sqrt(mean(group.map((r) => (r - mu) ** 2)));
    for (const e of members) out[e] = sd > 0 ? (returns[e] - mu) / (sd + 1e-8) : 0;
  }
  return out;
}

/** Moves the rows that `keep` accepts to the front, in order; returns how many there are. */
function keepRows(n: number, keep: (i: number) => boolean, D: number, obs: Float32Array, action: Float32Array, logp: Float32Array, env: Int32Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (!keep(i)) continue;
    if (k !== i) {
      obs.copyWithin(k * D, i * D, (i + 1) * D);
      action[k] = action[i];
      logp[k] = logp[i];
      env[k] = env[i];
    }
    k++;
  }
  return k;
}

/**
 * GRPO: no critic. Each update resets every group of `groupSize` envs to one shared seed,
 * plays one episode per env, and trains the policy with the clipped (clip-higher) objective
 * on group-relative advantages.
 */
export async function grpo(opts: GrpoOptions): Promise<GrpoResult> {
  const cfg = parseGrpoConfig(opts.config ?? {});
  const E = opts.env.numEnvs;
  if (E % cfg.groupSize !== 0) throw new Error(`env.numEnvs (${E}) must be a multiple of groupSize (${cfg.groupSize})`);
  // The shaped rewards give the advantages; the statistics under them keep the raw returns.
  const wrappers = new TrainingWrappers(opts.env, {
    rewardShaping: cfg.rewardShaping,
    normalizeObservation: { enabled: false, epsilon: 1e-8 },
    normalizeReward: { enabled: false, gamma: 1, epsilon: 1e-8 },
  });
  const env = wrappers.env;
  const groups = E / cfg.groupSize;
  const backend = typeof opts.backend === 'object' ? opts.backend : await createBackend(opts.backend ?? 'auto');
  const spec = resolveNetworkSpec(opts.obsShape, opts.numActions, cfg.network);
  const net = new ActorCritic(backend, spec, cfg.seed);
  const adam = new Adam(backend, net.store, {
    lr: cfg.learningRate,
    beta1: cfg.adamBeta1,
    beta2: cfg.adamBeta2,
    eps: cfg.adamEps,
    maxGradNorm: cfg.maxGradNorm,
  });
  const capacity = E * cfg.maxEpisodeSteps;
  const learner = new PpoLearner(net, adam, capacity, cfg.minibatchSize, cfg.updateEpochs);
  const encoder = encoderFor(opts.obsShape, cfg.network);
  const acting = new ActingSession(net, E, deriveSeed(cfg.seed, SeedStream.sampling));
  const shuffleRng = new Rng(deriveSeed(cfg.seed, SeedStream.shuffle));
  const startSeedBase = deriveSeed(cfg.seed, SeedStream.grpoStarts);
  const window = new EpisodeWindow(cfg.episodeWindow);
  const D = encoder.netSize;
  const started = Date.now();

  const obs = new Float32Array(E * D);
  const rowsObs = new Float32Array(capacity * D);
  const rowsAction = new Float32Array(capacity);
  const rowsLogp = new Float32Array(capacity);
  const rowsEnv = new Int32Array(capacity);
  const metrics: GrpoMetrics[] = [];
  let globalStep = 0;
  let update = 0;

  while (globalStep < cfg.totalTimesteps) {
    update++;
    const t0 = performance.now();
    const lr = cfg.annealLr ? cfg.learningRate * Math.max(0, 1 - globalStep / cfg.totalTimesteps) : cfg.learningRate;
    adam.setLearningRate(lr);
    // Every env of group g starts from the same seed, fresh for each update.
    const seeds = Array.from({ length: E }, (_, e) => (startSeedBase + update * groups + Math.floor(e / cfg.groupSize)) >>> 0);
    const start = await env.reset({ seed: seeds });
    encodeBatch(start.observations, E, encoder, obs);
    // An env whose reset failed (infos[e].resetFailure; its retry comes as a reset-only step)
    // plays no episode of its group's seed this update: it is left out of the group and its rows.
    const played = Array.from({ length: E }, (_, e) => !start.infos[e]?.resetFailure);
    let failedResetCause = start.infos.map(resetFailureCause).find((c) => c !== null) ?? null;
    const active = [...played];
    const shapedReturn = new Array<number>(E).fill(0);
    const rawReturn = new Array<number>(E).fill(0);
    const length = new Array<number>(E).fill(0);
    let n = 0;
    for (let t = 0; t < cfg.maxEpisodeSteps && active.some(Boolean); t++) {
      const act = await acting.act(obs);
      for (let e = 0; e < E; e++) {
        if (!active[e]) continue;
        rowsObs.set(obs.subarray(e * D, (e + 1) * D), n * D);
        rowsAction[n] = act.actions[e];
        rowsLogp[n] = act.logProbs[e];
        rowsEnv[n] = e;
        n++;
      }
      const step = await env.step(Array.from(act.actions, (a) => Math.round(a)));
      for (let e = 0; e < E; e++) {
        if (!active[e]) continue;
        if (isResetOnly(step.infos[e])) {
          failedResetCause = resetFailureCause(step.infos[e]) ?? failedResetCause;
          played[e] = active[e] = false;
          continue;
        }
        const term = !!step.terminated[e];
        const trunc = !!step.truncated[e];
        shapedReturn[e] += step.rewards[e];
        length[e]++;
        if (term || trunc) {
          active[e] = false;
          rawReturn[e] = step.infos[e]?.episodeStatistics?.return ?? 0;
        }
      }
      encodeBatch(step.observations, E, encoder, obs);
    }
    // Episodes cut at maxEpisodeSteps: their raw return so far.
    const running = wrappers.stats.running.returns;
    for (let e = 0; e < E; e++) if (active[e]) rawReturn[e] = running[e];
    const adv = groupAdvantages(shapedReturn, cfg.groupSize, played);
    n = keepRows(n, (i) => played[rowsEnv[i]], D, rowsObs, rowsAction, rowsLogp, rowsEnv);
    const rowsAdv = Float32Array.from({ length: n }, (_, i) => adv[rowsEnv[i]]);
    const loss = await learner.update(
      { n, obs: rowsObs, actions: rowsAction, logProbs: rowsLogp, advantages: rowsAdv, returns: new Float32Array(n), values: new Float32Array(n) },
      {
        epochs: cfg.updateEpochs,
        minibatchSize: cfg.minibatchSize,
        ...(cfg.clipHigher.enabled ? { epsLow: cfg.clipHigher.epsLow, epsHigh: cfg.clipHigher.epsHigh } : { epsLow: cfg.clipCoef, epsHigh: cfg.clipCoef }),
        entCoef: cfg.entCoef,
        vfCoef: 0,
        valueClip: null,
        targetKl: null,
        trainPolicy: true,
        trainValue: false,
      },
      shuffleRng,
    );
    globalStep += n;
    for (let e = 0; e < E; e++) if (played[e]) window.push(rawReturn[e], length[e]);
    const stds: number[] = [];
    for (let g = 0; g < groups; g++) {
      const group = shapedReturn.slice(g * cfg.groupSize, (g + 1) * cfg.groupSize).filter((_, i) => played[g * cfg.groupSize + i]);
      if (group.length === 0) continue;
      const mu = mean(group);
      stds.push(Math.sqrt(mean(group.map((r) => (r - mu) ** 2))));
    }
    const m: GrpoMetrics = {
      algorithm: 'grpo',
      update,
      globalStep,
      learningRate: lr,
      policyLoss: finiteOrNull(loss.policyLoss),
      ...policyUpdateMetrics(loss),
      groupReturnMean: mean(shapedReturn.filter((_, e) => played[e])),
      groupReturnStdMean: mean(stds),
      zeroStdGroups: stds.filter((s) => s === 0).length,
      episodeReturnMean: window.meanReturn(),
      episodeLengthMean: window.meanLength(),
      episodesWindow: window.returns.length,
      episodesThisUpdate: played.filter(Boolean).length,
      // Envs whose reset failed play no episode of their group this update.
      failedResets: failedResetCause === null ? 0 : E - played.filter(Boolean).length,
      failedResetCause,
      samples: n,
      stepsPerSec: n / Math.max(1e-9, (performance.now() - t0) / 1000),
      elapsedSeconds: (Date.now() - started) / 1000,
    };
    metrics.push(m);
    await opts.writer?.metrics?.(m);
    await opts.onUpdate?.(m);
    if (opts.stopWhen?.(m)) break;
  }
  const agent = new PolicyAgent(net, encoder, {}, { algorithm: 'grpo', config: cfg });
  await opts.writer?.policy?.(agent);
  return { config: cfg, metrics, globalStep, updates: update, network: spec, agent };
}
