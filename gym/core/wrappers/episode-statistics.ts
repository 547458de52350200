import type { Env, ResetOptions, ResetResult, StepResult } from '../env';
import type { EpisodeStatistics, VectorEnv, VectorResetOptions, VectorResetResult, VectorStepResult } from '../vector-env';
import { VectorWrapper, Wrapper, isResetOnly, unwrapState, wrapState } from './wrapper';

export interface EpisodeStatisticsState {
  returns: number[];
  lengths: number[];
}

/**
 * Gymnasium's RecordEpisodeStatistics: on the step that ends an episode, `info.episodeStatistics`
 * holds its return and length as this wrapper saw them. Put it under reward-changing wrappers
 * to log raw returns. No wall-clock time: records stay deterministic.
 */
export class RecordEpisodeStatistics<Obs, Act, RInfo = object, SInfo = object> extends Wrapper<
  Obs,
  Act,
  RInfo,
  SInfo & { episodeStatistics?: EpisodeStatistics }
> {
  private episodeReturn = 0;
  private episodeLength = 0;

  constructor(env: Env<Obs, Act, RInfo, SInfo>) {
    super(env as Env<Obs, Act, RInfo, SInfo & { episodeStatistics?: EpisodeStatistics }>);
  }

  override async reset(options?: ResetOptions): Promise<ResetResult<Obs, RInfo>> {
    this.episodeReturn = 0;
    this.episodeLength = 0;
    return this.env.reset(options);
  }

  override async step(action: Act): Promise<StepResult<Obs, SInfo & { episodeStatistics?: EpisodeStatistics }>> {
    const r = await this.env.step(action);
    this.episodeReturn += r.reward;
    this.episodeLength++;
    if (!(r.terminated || r.truncated)) return r;
    return { ...r, info: { ...r.info, episodeStatistics: { return: this.episodeReturn, length: this.episodeLength } } };
  }

  override getState(): unknown {
    return wrapState(this.env, { returns: [this.episodeReturn], lengths: [this.episodeLength] } satisfies EpisodeStatisticsState);
  }

  override setState(state: unknown): void {
    const own = unwrapState(this.env, state) as EpisodeStatisticsState;
    this.episodeReturn = own.returns[0];
    this.episodeLength = own.lengths[0];
  }
}

/**
 * The vector version, for either autoreset mode: next-step autoreset steps (no transition) are
 * not counted, and a sub-env that could not reset is not reported as an episode.
 */
export class VectorRecordEpisodeStatistics<Obs, Act, RInfo = object, SInfo = object> extends VectorWrapper<Obs, Act, RInfo, SInfo> {
  private returns: Float64Array;
  private lengths: Float64Array;

  constructor(env: VectorEnv<Obs, Act, RInfo, SInfo>) {
    super(env);
    this.returns = new Float64Array(env.numEnvs);
    this.lengths = new Float64Array(env.numEnvs);
  }

  /** Running return and length of each sub-env's current episode. */
  get running(): { returns: readonly number[]; lengths: readonly number[] } {
    return { returns: Array.from(this.returns), lengths: Array.from(this.lengths) };
  }

  /** Restores the running sums (a trainer's checkpoint keeps them apart from the env's state). */
  setRunning(returns: readonly number[], lengths: readonly number[]): void {
    if (returns.length !== this.numEnvs || lengths.length !== this.numEnvs) throw new Error(`episode statistics: expected ${this.numEnvs} running sums`);
    this.returns = Float64Array.from(returns);
    this.lengths = Float64Array.from(lengths);
  }

  override async reset(options?: VectorResetOptions): Promise<VectorResetResult<Obs, RInfo>> {
    const r = await this.env.reset(options);
    this.returns.fill(0);
    this.lengths.fill(0);
    return r;
  }

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, SInfo, RInfo>> {
    const r = await this.env.step(actions);
    const infos = r.infos.map((info, i) => {
      if (isResetOnly(info)) {
        this.returns[i] = 0;
        this.lengths[i] = 0;
        return info;
      }
      this.returns[i] += r.rewards[i];
      this.lengths[i] += 1;
      if (!(r.terminated[i] || r.truncated[i])) return info;
      const episodeStatistics = { return: this.returns[i], length: this.lengths[i] };
      this.returns[i] = 0;
      this.lengths[i] = 0;
      return { ...info, episodeStatistics };
    });
    return { ...r, infos };
  }

  override getState(): unknown {
    return wrapState(this.env, { returns: Array.from(this.returns), lengths: Array.from(this.lengths) } satisfies EpisodeStatisticsState);
  }

  override setState(state: unknown): void {
    const own = unwrapState(this.env, state) as EpisodeStatisticsState;
    this.returns = Float64Array.from(own.returns);
    this.lengths = Float64Array.from(own.lengths);
  }
}
