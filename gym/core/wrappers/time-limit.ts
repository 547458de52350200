import type { Env, ResetOptions, ResetResult, StepResult } from '../env';
import { Wrapper, unwrapState, wrapState } from './wrapper';

/**
 * Gymnasium's TimeLimit: truncates the episode after `maxEpisodeSteps` steps (reported even
 * when that step also terminates, as Gymnasium does). Arcade envs have their own step budget
 * (`maxSteps`, part of the episode record); this is for envs without one.
 */
export class TimeLimit<Obs, Act, RInfo = object, SInfo = object> extends Wrapper<Obs, Act, RInfo, SInfo> {
  private elapsed = 0;

  constructor(
    env: Env<Obs, Act, RInfo, SInfo>,
    readonly maxEpisodeSteps: number,
  ) {
    super(env);
    if (!Number.isInteger(maxEpisodeSteps) || maxEpisodeSteps < 1) throw new Error(`maxEpisodeSteps must be a positive integer, got ${maxEpisodeSteps}`);
  }

  get elapsedSteps(): number {
    return this.elapsed;
  }

  override async reset(options?: ResetOptions): Promise<ResetResult<Obs, RInfo>> {
    this.elapsed = 0;
    return this.env.reset(options);
  }

  override async step(action: Act): Promise<StepResult<Obs, SInfo>> {
    const r = await this.env.step(action);
    this.elapsed++;
    return this.elapsed >= this.maxEpisodeSteps ? { ...r, truncated: true } : r;
  }

  override getState(): unknown {
    return wrapState(this.env, { elapsed: this.elapsed });
  }

  override setState(state: unknown): void {
    this.elapsed = (unwrapState(this.env, state) as { elapsed: number }).elapsed;
  }
}
