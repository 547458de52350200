import type { Env, ResetOptions, ResetResult, StepResult } from '../env';
import { boxSpace, batchSpace, type Space } from '../spaces';
import type { VectorEnv, VectorResetOptions, VectorResetResult, VectorStepResult } from '../vector-env';
import { RunningMeanStd, normalizeWith, type RunningMeanStdState } from './running-mean-std';
import { ObservationWrapper, VectorObservationWrapper, VectorWrapper, Wrapper, unwrapState, wrapState } from './wrapper';

export interface NormalizeObservationOptions {
  /** Added to the variance before the square root (Gymnasium: 1e-8). */
  epsilon?: number;
  /** false freezes the statistics (evaluation). */
  updateRunningMean?: boolean;
}

export interface NormalizeObservationState {
  rms: RunningMeanStdState;
  epsilon: number;
}

const sizeOf = (space: Space): number => {
  if (space.type !== 'Box') throw new Error(`observation normalisation needs a Box observation space, got ${space.type}`);
  return space.shape.reduce((a, b) => a * b, 1);
};

/** The float32 Box of normalised observations with the shape of `space`. */
const normalisedSpace = (space: Space): Space => (space.type === 'Box' ? boxSpace(space.shape, 'float32') : space);

/**
 * Gymnasium's NormalizeObservation: every observation (reset ones included) updates a running
 * mean and variance, and is returned as (obs − mean) / √(var + ε). Its statistics are part of
 * `getState()`, and a trained policy needs them to act (PolicyAgent keeps them).
 */
export class NormalizeObservation<Act, RInfo = object, SInfo = object> extends ObservationWrapper<ArrayLike<number>, Float32Array, Act, RInfo, SInfo> {
  readonly rms: RunningMeanStd;
  readonly epsilon: number;
  updateRunningMean: boolean;

  constructor(env: Env<ArrayLike<number>, Act, RInfo, SInfo>, options: NormalizeObservationOptions = {}) {
    super(env);
    this.rms = new RunningMeanStd(sizeOf(env.observationSpace));
    this.epsilon = options.epsilon ?? 1e-8;
    this.updateRunningMean = options.updateRunningMean ?? true;
  }

  get observationSpace(): Space {
    return normalisedSpace(this.env.observationSpace);
  }

  protected observation(obs: ArrayLike<number>): Float32Array {
    if (this.updateRunningMean) this.rms.update(obs, 1);
    return normalizeWith(this.rms, obs, this.epsilon);
  }

  override getState(): unknown {
    return wrapState(this.env, { rms: this.rms.getState(), epsilon: this.epsilon });
  }

  override setState(state: unknown): void {
    this.rms.setState((unwrapState(this.env, state) as NormalizeObservationState).rms);
  }
}

/** The vector version: each batch of observations updates the statistics once (Gymnasium's vector wrapper). */
export class VectorNormalizeObservation<Act, RInfo = object, SInfo = object> extends VectorObservationWrapper<
  ArrayLike<number>,
  Float32Array,
  Act,
  RInfo,
  SInfo
> {
  readonly rms: RunningMeanStd;
  readonly epsilon: number;
  updateRunningMean: boolean;

  constructor(env: VectorEnv<ArrayLike<number>, Act, RInfo, SInfo>, options: NormalizeObservationOptions = {}) {
    super(env);
    this.rms = new RunningMeanStd(sizeOf(env.singleObservationSpace));
    this.epsilon = options.epsilon ?? 1e-8;
    this.updateRunningMean = options.updateRunningMean ?? true;
  }

  get singleObservationSpace(): Space {
    return normalisedSpace(this.env.singleObservationSpace);
  }

  get observationSpace(): Space {
    return batchSpace(this.singleObservationSpace, this.numEnvs);
  }

  private updateWith(observations: readonly ArrayLike<number>[]): void {
    if (!this.updateRunningMean) return;
    const d = this.rms.size;
    const batch = new Float64Array(observations.length * d);
    observations.forEach((o, i) => {
      for (let j = 0; j < d; j++) batch[i * d + j] = o[j];
    });
    this.rms.update(batch, observations.length);
  }

  override async reset(options?: VectorResetOptions): Promise<VectorResetResult<Float32Array, RInfo>> {
    const r = await this.env.reset(options);
    this.updateWith(r.observations);
    return { observations: r.observations.map((o) => normalizeWith(this.rms, o, this.epsilon)), infos: r.infos };
  }

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Float32Array, SInfo, RInfo>> {
    const r = await this.env.step(actions);
    this.updateWith(r.observations);
    return this.mapStep(r);
  }

  /** Final observations are normalised with the statistics as they stand, without updating them. */
  protected observation(obs: ArrayLike<number>): Float32Array {
    return normalizeWith(this.rms, obs, this.epsilon);
  }

  override getState(): unknown {
    return wrapState(this.env, { rms: this.rms.getState(), epsilon: this.epsilon });
  }

  override setState(state: unknown): void {
    this.rms.setState((unwrapState(this.env, state) as NormalizeObservationState).rms);
  }
}

export interface NormalizeRewardOptions {
  /** Discount of the running return whose variance scales the rewards (Gymnasium: 0.99). */
  gamma?: number;
  epsilon?: number;
  updateRunningMean?: boolean;
}

export interface NormalizeRewardState {
  rms: RunningMeanStdState;
  discountedReturn: number[];
}

/**
 * Gymnasium's NormalizeReward: keeps a discounted running return G ← γ·G·(1 − terminated) + r,
 * tracks its variance, and returns r / √(var(G) + ε). The mean is not subtracted, so the sign
 * of a reward is kept.
 */
export class NormalizeReward<Obs, Act, RInfo = object, SInfo = object> extends Wrapper<Obs, Act, RInfo, SInfo> {
  readonly rms = new RunningMeanStd(1);
  readonly gamma: number;
  readonly epsilon: number;
  updateRunningMean: boolean;
  private discountedReturn = 0;

  constructor(env: Env<Obs, Act, RInfo, SInfo>, options: NormalizeRewardOptions = {}) {
    super(env);
    this.gamma = options.gamma ?? 0.99;
    this.epsilon = options.epsilon ?? 1e-8;
    this.updateRunningMean = options.updateRunningMean ?? true;
  }

  override async reset(options?: ResetOptions): Promise<ResetResult<Obs, RInfo>> {
    return this.env.reset(options);
  }

  override async step(action: Act): Promise<StepResult<Obs, SInfo>> {
    const r = await this.env.step(action);
    this.discountedReturn = this.discountedReturn * this.gamma * (r.terminated ? 0 : 1) + r.reward;
    if (this.updateRunningMean) this.rms.update([this.discountedReturn], 1);
    return { ...r, reward: r.reward / Math.sqrt(this.rms.var[0] + this.epsilon) };
  }

  override getState(): unknown {
    return wrapState(this.env, { rms: this.rms.getState(), discountedReturn: [this.discountedReturn] } satisfies NormalizeRewardState);
  }

  override setState(state: unknown): void {
    const own = unwrapState(this.env, state) as NormalizeRewardState;
    this.rms.setState(own.rms);
    this.discountedReturn = own.discountedReturn[0];
  }
}

/** The vector version: one running return per sub-env, the variance shared (Gymnasium's vector wrapper). */
export class VectorNormalizeReward<Obs, Act, RInfo = object, SInfo = object> extends VectorWrapper<Obs, Act, RInfo, SInfo> {
  readonly rms = new RunningMeanStd(1);
  readonly gamma: number;
  readonly epsilon: number;
  updateRunningMean: boolean;
  private discountedReturn: Float64Array;

  constructor(env: VectorEnv<Obs, Act, RInfo, SInfo>, options: NormalizeRewardOptions = {}) {
    super(env);
    this.gamma = options.gamma ?? 0.99;
    this.epsilon = options.epsilon ?? 1e-8;
    this.updateRunningMean = options.updateRunningMean ?? true;
    this.discountedReturn = new Float64Array(env.numEnvs);
  }

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, SInfo, RInfo>> {
    const r = await this.env.step(actions);
    for (let i = 0; i < this.numEnvs; i++) this.discountedReturn[i] = this.discountedReturn[i] * this.gamma * (r.terminated[i] ? 0 : 1) + r.rewards[i];
    if (this.updateRunningMean) this.rms.update(this.discountedReturn, this.numEnvs);
    const scale = Math.sqrt(this.rms.var[0] + this.epsilon);
    return { ...r, rewards: Float64Array.from(r.rewards, (x) => x / scale) };
  }

  /** This wrapper's own state (the variance and each env's running return), without the env's. */
  getStatistics(): NormalizeRewardState {
    return { rms: this.rms.getState(), discountedReturn: Array.from(this.discountedReturn) };
  }

  setStatistics(own: NormalizeRewardState): void {
    if (own.discountedReturn.length !== this.numEnvs)
      throw new Error(`reward normalisation: state of ${own.discountedReturn.length} envs, expected ${this.numEnvs}`);
    this.rms.setState(own.rms);
    this.discountedReturn = Float64Array.from(own.discountedReturn);
  }

  override getState(): unknown {
    return wrapState(this.env, this.getStatistics());
  }

  override setState(state: unknown): void {
    this.setStatistics(unwrapState(this.env, state) as NormalizeRewardState);
  }
}
