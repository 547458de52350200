import type { VectorEnv } from '../core/vector-env';
import { VectorRecordEpisodeStatistics } from '../core/wrappers/episode-statistics';
import { VectorNormalizeObservation, VectorNormalizeReward, type NormalizeObservationState, type NormalizeRewardState } from '../core/wrappers/normalize';
import { VectorShapeReward, isShaping, type RewardShapingConfig } from '../core/wrappers/reward-shaping';
import { isResetOnly, resetFailureCause } from '../core/wrappers/wrapper';
import { actionMaskOf, writeActionMasks } from '../core/action-mask';
import type { ActingSession } from './acting';
import type { PpoConfig } from './config';
import type { ObsEncoder } from './obs-encoder';

/** What the trainers step: any vector env of flat observations and preset-index actions (see gym/core). */
export type TrainingEnv = VectorEnv<ArrayLike<number>, number>;

/** Per-env observations, or all of them flattened env-major. */
export type BatchedObs = readonly ArrayLike<number>[] | ArrayLike<number>;

/** One rollout, time-major: entry t·E + e is env e at step t. */
export interface Rollout {
  numSteps: number;
  numEnvs: number;
  /** Encoded observations [T·E, inputSize]. */
  obs: Float32Array;
  actions: Float32Array;
  logProbs: Float32Array;
  values: Float32Array;
  /** Rewards as the learner sees them (shaped, normalised). */
  rewards: Float32Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
  /** 0 for next-step autoreset transitions (not part of any episode; excluded from the loss). */
  valid: Uint8Array;
  /** V(final obs) for steps ending in truncation. */
  bootstrapValues: Float32Array;
  /** V(obs after the last step), per env. */
  lastValues: Float32Array;
  /** Steps each env's running episode had taken before the rollout started. */
  startLengths: Float32Array;
  /** Episodes that ended during the rollout, with raw (unshaped) returns. */
  episodes: { return: number; length: number }[];
  /** The action masks each action was drawn under [T·E, actions] (null: the run does not mask). */
  masks: Float32Array | null;
  /** Steps lost to an env whose reset failed and was retried (no sample), and the last cause. */
  failedResets: { steps: number; lastCause: string | null };
}

/** The reward and observation wrappers the trainer puts over the env, from the config. */
export interface CollectorWrappers {
  rewardShaping: RewardShapingConfig;
  normalizeObservation: PpoConfig['normalizeObservation'];
  normalizeReward: PpoConfig['normalizeReward'];
  /** The run's discount: the reward normaliser's when its own gamma is null. */
  gamma?: number;
}

/** The wrappers' own statistics, saved in training checkpoints (absent: no normalisation). */
export interface NormalizationState {
  observation?: NormalizeObservationState;
  reward?: NormalizeRewardState;
}

/**
 * The wrapper stack a trainer steps, innermost first: episode statistics (raw returns), reward
 * shaping, reward normalisation, observation normalisation, each only when the config asks.
 */
export class TrainingWrappers {
  readonly stats: VectorRecordEpisodeStatistics<ArrayLike<number>, number>;
  readonly rewardNorm: VectorNormalizeReward<ArrayLike<number>, number> | null;
  readonly obsNorm: VectorNormalizeObservation<number> | null;
  readonly env: TrainingEnv;

  constructor(base: TrainingEnv, c: CollectorWrappers) {
    this.stats = new VectorRecordEpisodeStatistics(base);
    let env: TrainingEnv = this.stats;
    if (isShaping(c.rewardShaping)) env = new VectorShapeReward(env, c.rewardShaping);
    this.rewardNorm = c.normalizeReward.enabled
      ? new VectorNormalizeReward(env, { gamma: c.normalizeReward.gamma ?? c.gamma ?? 0.99, epsilon: c.normalizeReward.epsilon })
      : null;
    env = this.rewardNorm ?? env;
    this.obsNorm = c.normalizeObservation.enabled ? new VectorNormalizeObservation(env, { epsilon: c.normalizeObservation.epsilon }) : null;
    this.env = this.obsNorm ?? env;
  }

  getNormalization(): NormalizationState {
    return {
      ...(this.obsNorm ? { observation: { rms: this.obsNorm.rms.getState(), epsilon: this.obsNorm.epsilon } } : {}),
      ...(this.rewardNorm ? { reward: this.rewardNorm.getStatistics() } : {}),
    };
  }

  setNormalization(s: NormalizationState | undefined): void {
    if (this.obsNorm && s?.observation) this.obsNorm.rms.setState(s.observation.rms);
    if (this.rewardNorm && s?.reward) this.rewardNorm.setStatistics(s.reward);
  }
}

/** The collector's state between rollouts, saved in checkpoints. */
export interface CollectorState {
  obs: Float32Array;
  pendingReset: boolean[];
  /** Raw return of each env's running episode (kept by the episode-statistics wrapper). */
  episodeReturn: number[];
  episodeLength: number[];
  samplingCounter: number;
  /** The action masks of `obs` (absent: the run does not mask). */
  masks?: Float32Array;
}

/** Encodes a batch of env observations into `out` (env-major, encoder.netSize each). */
export function encodeBatch(obs: BatchedObs, num: number, encoder: ObsEncoder, out: Float32Array): void {
  const size = encoder.envSize;
  const list = obs.length > 0 && typeof (obs as ArrayLike<unknown>)[0] === 'object';
  if (list && obs.length !== num) throw new Error(`expected ${num} observations, got ${obs.length}`);
  if (!list && obs.length !== num * size) throw new Error(`flattened observations have ${obs.length} values, expected ${num * size}`);
  for (let e = 0; e < num; e++) {
    const o = list ? (obs as readonly ArrayLike<number>[])[e] : flatRow(obs as ArrayLike<number>, e * size, size);
    encoder.encode(o, out, e * encoder.netSize);
  }
}

function flatRow(flat: ArrayLike<number>, start: number, size: number): ArrayLike<number> {
  if (ArrayBuffer.isView(flat)) return (flat as unknown as Float32Array).subarray(start, start + size);
  return Array.prototype.slice.call(flat, start, start + size) as number[];
}

/**
 * Steps a vector env (gym/core's VectorEnv) with the current policy and records everything
 * GAE and the PPO update need. Handles both Gymnasium autoreset modes. The config's reward
 * and observation wrappers go over the env here; episode returns are logged raw.
 */
export class RolloutCollector {
  private obs: Float32Array;
  private pendingReset: boolean[];
  private episodeLength: number[];
  /** The masks of the current observations [E, actions], once the envs turned out to give them (maskActions). */
  private masks: Float32Array | null = null;
  private readonly num: number;
  readonly wrappers: TrainingWrappers;
  readonly env: TrainingEnv;

  constructor(
    base: TrainingEnv,
    readonly encoder: ObsEncoder,
    readonly acting: ActingSession,
    config: CollectorWrappers,
    /**
     * Draw actions under the envs' action masks when their reset infos carry masks with one entry per
     * policy action (info.actionMask); a later info without one allows every action.
     */
    private readonly maskActions = false,
  ) {
    this.num = base.numEnvs;
    if (acting.batch !== base.numEnvs) throw new Error(`acting batch ${acting.batch} ≠ env.numEnvs ${base.numEnvs}`);
    this.wrappers = new TrainingWrappers(base, config);
    this.env = this.wrappers.env;
    this.obs = new Float32Array(this.num * encoder.netSize);
    this.pendingReset = new Array(this.num).fill(false);
    this.episodeLength = new Array(this.num).fill(0);
  }

  /** Whether actions are drawn under action masks (decided at the first reset). */
  get masked(): boolean {
    return this.masks !== null;
  }

  async reset(seed: number | readonly number[]): Promise<void> {
    const { observations, infos } = await this.env.reset({ seed });
    encodeBatch(observations, this.num, this.encoder, this.obs);
    const A = this.acting.net.numActions;
    if (this.maskActions && !this.masks && infos.some((i) => actionMaskOf(i)?.length === A)) this.masks = new Float32Array(this.num * A);
    if (this.masks) writeActionMasks(infos, A, this.masks);
    this.pendingReset.fill(false);
    this.episodeLength.fill(0);
  }

  getState(): CollectorState {
    return {
      obs: this.obs.slice(),
      pendingReset: [...this.pendingReset],
      episodeReturn: [...this.wrappers.stats.running.returns],
      episodeLength: [...this.episodeLength],
      samplingCounter: this.acting.counter,
      ...(this.masks ? { masks: this.masks.slice() } : {}),
    };
  }

  setState(s: CollectorState): void {
    if (s.obs.length !== this.obs.length) throw new Error('collector state does not match the env/network');
    this.obs = s.obs.slice();
    this.pendingReset = [...s.pendingReset];
    this.wrappers.stats.setRunning(s.episodeReturn, s.episodeLength);
    this.episodeLength = [...s.episodeLength];
    this.acting.counter = s.samplingCounter;
    if (s.masks && s.masks.length !== this.num * this.acting.net.numActions) throw new Error('collector state: its action masks do not match the env/network');
    this.masks = s.masks ? s.masks.slice() : null;
  }

  async collect(numSteps: number): Promise<Rollout> {
    const E = this.num;
    const T = numSteps;
    const D = this.encoder.netSize;
    const nextStepMode = this.env.autoresetMode === 'next-step';
    const r: Rollout = {
      numSteps: T,
      numEnvs: E,
      obs: new Float32Array(T * E * D),
      actions: new Float32Array(T * E),
      logProbs: new Float32Array(T * E),
      values: new Float32Array(T * E),
      rewards: new Float32Array(T * E),
      terminated: new Uint8Array(T * E),
      truncated: new Uint8Array(T * E),
      valid: new Uint8Array(T * E),
      bootstrapValues: new Float32Array(T * E),
      lastValues: new Float32Array(E),
      startLengths: Float32Array.from(this.episodeLength),
      episodes: [],
      masks: this.masks ? new Float32Array(T * this.masks.length) : null,
      failedResets: { steps: 0, lastCause: null },
    };
    const finalObs = new Float32Array(E * D);
    for (let t = 0; t < T; t++) {
      r.obs.set(this.obs, t * E * D);
      if (this.masks) r.masks!.set(this.masks, t * this.masks.length);
      const act = await this.acting.act(this.obs, this.masks);
      for (let e = 0; e < E; e++) {
        const i = t * E + e;
        r.valid[i] = this.pendingReset[e] ? 0 : 1;
        r.actions[i] = act.actions[e];
        r.logProbs[i] = act.logProbs[e];
        r.values[i] = act.values[e];
        // next-step mode: this obs is the final obs of the episode truncated at t − 1.
        if (nextStepMode && this.pendingReset[e] && t > 0) {
          const prev = i - E;
          if (r.truncated[prev] && !r.terminated[prev]) r.bootstrapValues[prev] = act.values[e];
        }
      }
      const step = await this.env.step(Array.from(act.actions, (a) => Math.round(a)));
      const needFinalValue: number[] = [];
      for (let e = 0; e < E; e++) {
        const i = t * E + e;
        if (!r.valid[i]) {
          this.pendingReset[e] = false;
          continue;
        }
        if (isResetOnly(step.infos[e])) {
          // A reset retried after it failed (infos[e].resetFailure, reported truncated in either
          // autoreset mode): no transition and no episode, so it is no sample either.
          r.valid[i] = 0;
          this.episodeLength[e] = 0;
          r.failedResets.steps++;
          r.failedResets.lastCause = resetFailureCause(step.infos[e]) ?? r.failedResets.lastCause;
          continue;
        }
        const term = !!step.terminated[e];
        const trunc = !!step.truncated[e];
        r.rewards[i] = step.rewards[e];
        r.terminated[i] = term ? 1 : 0;
        r.truncated[i] = trunc ? 1 : 0;
        this.episodeLength[e] += 1;
        if (!term && !trunc) continue;
        const stats = step.infos[e]?.episodeStatistics;
        if (stats) r.episodes.push({ return: stats.return, length: this.episodeLength[e] });
        this.episodeLength[e] = 0;
        if (nextStepMode) this.pendingReset[e] = true;
        else if (trunc && !term) needFinalValue.push(e);
      }
      encodeBatch(step.observations, E, this.encoder, this.obs);
      if (this.masks) writeActionMasks(step.infos, this.acting.net.numActions, this.masks);
      if (needFinalValue.length > 0) {
        // same-step mode: bootstrap truncated episodes from V(infos[e].finalObservation), one batched forward.
        finalObs.set(this.obs);
        for (const e of needFinalValue) {
          const fo = step.infos[e]?.finalObservation;
          if (!fo) throw new Error(`env ${e} was truncated in same-step autoreset mode without infos[${e}].finalObservation`);
          this.encoder.encode(fo, finalObs, e * D);
        }
        const v = await this.acting.values(finalObs);
        for (const e of needFinalValue) r.bootstrapValues[t * E + e] = v[e];
      }
    }
    r.lastValues = await this.acting.values(this.obs);
    if (nextStepMode) {
      for (let e = 0; e < E; e++) {
        const i = (T - 1) * E + e;
        if (r.valid[i] && r.truncated[i] && !r.terminated[i]) r.bootstrapValues[i] = r.lastValues[e];
      }
    }
    return r;
  }
}
