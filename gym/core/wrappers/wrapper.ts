import type { Env, ResetOptions, ResetResult, StepResult } from '../env';
import type { Space } from '../spaces';
import type { AutoresetMode, VectorEnv, VectorResetOptions, VectorResetResult, VectorStepResult } from '../vector-env';

/** "CODE: message" of an info's failed reset (a vector env's `resetFailure`), null when its reset did not fail. */
export function resetFailureCause(info: unknown): string | null {
  const failure = (info as { resetFailure?: { code?: string; message?: string } } | undefined)?.resetFailure;
  return failure ? [failure.code, failure.message].filter(Boolean).join(': ') || 'reset failed' : null;
}

/**
 * Whether sub-env i's step was only a reset (next-step autoreset, or a retried reset that
 * failed again): no transition happened, so rewards and episode counts must leave it alone.
 */
export function isResetOnly(info: { autoreset?: boolean; resetFailure?: unknown; finalObservation?: unknown } | undefined): boolean {
  return !!info && (info.autoreset === true || (info.resetFailure !== undefined && info.finalObservation === undefined));
}

/** A wrapper's snapshot: its own state next to the wrapped env's (null when that keeps none). */
export interface WrapperState {
  env: unknown;
  own: unknown;
}

/** null when the wrapped env keeps no state: the stack as a whole cannot be restored then. */
export function wrapState(inner: { getState?(): unknown }, own: unknown): WrapperState | null {
  const env = inner.getState ? inner.getState() : null;
  return env === null || env === undefined ? null : { env, own };
}

export function unwrapState(inner: { setState?(s: unknown): void }, state: unknown): unknown {
  const s = state as WrapperState;
  if (!s || typeof s !== 'object' || !('env' in s)) throw new Error('wrapper state: expected { env, own }');
  if (!inner.setState) throw new Error('wrapper state: the wrapped env cannot restore a state');
  inner.setState(s.env);
  return s.own;
}

/**
 * Gymnasium's Wrapper: an Env around an Env, passing everything through unless it overrides
 * it. Subclasses change the observation, the reward or the episode's end.
 */
export class Wrapper<Obs, Act, RInfo = object, SInfo = object, InObs = Obs> implements Env<Obs, Act, RInfo, SInfo> {
  constructor(readonly env: Env<InObs, Act, RInfo, SInfo>) {}

  get observationSpace(): Space {
    return this.env.observationSpace;
  }

  get actionSpace(): Space {
    return this.env.actionSpace;
  }

  /** The env at the bottom of the wrapper stack. */
  get unwrapped(): Env<unknown, Act> {
    let e: Env<unknown, Act> = this.env as Env<unknown, Act>;
    while (e instanceof Wrapper) e = e.env as Env<unknown, Act>;
    return e;
  }

  async reset(options?: ResetOptions): Promise<ResetResult<Obs, RInfo>> {
    return (await this.env.reset(options)) as unknown as ResetResult<Obs, RInfo>;
  }

  async step(action: Act): Promise<StepResult<Obs, SInfo>> {
    return (await this.env.step(action)) as unknown as StepResult<Obs, SInfo>;
  }

  close(): Promise<unknown> | unknown {
    return this.env.close();
  }

  getState(): unknown {
    return wrapState(this.env, null);
  }

  setState(state: unknown): void {
    unwrapState(this.env, state);
  }
}

/** A wrapper that maps every observation (Gymnasium's ObservationWrapper). */
export abstract class ObservationWrapper<InObs, Obs, Act, RInfo = object, SInfo = object> extends Wrapper<Obs, Act, RInfo, SInfo, InObs> {
  abstract override get observationSpace(): Space;
  /** Called on every observation, reset ones included (with `reset` true). */
  protected abstract observation(obs: InObs, reset: boolean): Obs;

  override async reset(options?: ResetOptions): Promise<ResetResult<Obs, RInfo>> {
    const r = await this.env.reset(options);
    return { observation: this.observation(r.observation, true), info: r.info };
  }

  override async step(action: Act): Promise<StepResult<Obs, SInfo>> {
    const r = await this.env.step(action);
    return { ...r, observation: this.observation(r.observation, false) };
  }
}

/** A vector env around a vector env, passing everything through unless it overrides it. */
export class VectorWrapper<Obs, Act, RInfo = object, SInfo = object, InObs = Obs> implements VectorEnv<Obs, Act, RInfo, SInfo> {
  constructor(readonly env: VectorEnv<InObs, Act, RInfo, SInfo>) {}

  get numEnvs(): number {
    return this.env.numEnvs;
  }

  get autoresetMode(): AutoresetMode {
    return this.env.autoresetMode;
  }

  get singleObservationSpace(): Space {
    return this.env.singleObservationSpace;
  }

  get singleActionSpace(): Space {
    return this.env.singleActionSpace;
  }

  get observationSpace(): Space {
    return this.env.observationSpace;
  }

  get actionSpace(): Space {
    return this.env.actionSpace;
  }

  async reset(options?: VectorResetOptions): Promise<VectorResetResult<Obs, RInfo>> {
    return (await this.env.reset(options)) as unknown as VectorResetResult<Obs, RInfo>;
  }

  async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, SInfo, RInfo>> {
    return (await this.env.step(actions)) as unknown as VectorStepResult<Obs, SInfo, RInfo>;
  }

  close(): Promise<unknown> | unknown {
    return this.env.close();
  }

  getState(): unknown {
    return wrapState(this.env, null);
  }

  setState(state: unknown): void {
    unwrapState(this.env, state);
  }
}

/** Maps every observation of a vector env, final observations of same-step autoreset included. */
export abstract class VectorObservationWrapper<InObs, Obs, Act, RInfo = object, SInfo = object> extends VectorWrapper<Obs, Act, RInfo, SInfo, InObs> {
  abstract override get singleObservationSpace(): Space;
  abstract override get observationSpace(): Space;
  /**
   * Sub-env i's observation. `kind` says which: the first of an episode ('reset': from reset()
   * or an autoreset), one within an episode ('step'), or the last of an episode that autoreset
   * in the same step ('final').
   */
  protected abstract observation(obs: InObs, i: number, kind: 'reset' | 'step' | 'final'): Obs;

  override async reset(options?: VectorResetOptions): Promise<VectorResetResult<Obs, RInfo>> {
    const r = await this.env.reset(options);
    return { observations: r.observations.map((o, i) => this.observation(o, i, 'reset')), infos: r.infos };
  }

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, SInfo, RInfo>> {
    return this.mapStep(await this.env.step(actions));
  }

  /** A step's result with its observations (final ones first, then the batch) mapped. */
  protected mapStep(r: VectorStepResult<InObs, SInfo, RInfo>): VectorStepResult<Obs, SInfo, RInfo> {
    const infos = r.infos.map((info, i) => {
      if (info.finalObservation === undefined) return info;
      return { ...info, finalObservation: this.observation(info.finalObservation, i, 'final') };
    });
    const observations = r.observations.map((o, i) => {
      const startsEpisode = infos[i].autoreset || infos[i].finalObservation !== undefined || infos[i].resetInfo !== undefined;
      return this.observation(o, i, startsEpisode ? 'reset' : 'step');
    });
    return { ...r, observations, infos: infos as VectorStepResult<Obs, SInfo, RInfo>['infos'] };
  }
}
