import { ArcadeGymError } from '../errors';
import type { Env, EnvFn, ResetResult } from './env';
import { batchSpace, type Space } from './spaces';
import {
  subEnvSeed,
  type AutoresetMode,
  type ResetFailure,
  type VectorEnv,
  type VectorInfo,
  type VectorResetOptions,
  type VectorResetResult,
  type VectorStepResult,
} from './vector-env';

export interface SyncVectorEnvOptions<Act> {
  /** Default 'next-step' (Gymnasium 1.0's default). */
  autoreset?: AutoresetMode;
  /** Checks every action before any env steps (throw to refuse the batch). */
  validateAction?: (action: Act, index: number) => void;
  /**
   * A reset error this returns a cause for does not fail the batch: env i is reported as
   * truncated with `resetFailure` and its reset is tried again on the next step (a browser
   * page that could not be opened, say). Other errors are thrown. By default all are thrown.
   */
  resetFailure?: (error: unknown) => ResetFailure | null;
}

interface SyncVectorEnvState {
  envs: unknown[];
  needsReset: boolean[];
  started: boolean;
}

/**
 * Gymnasium's SyncVectorEnv: one env per `envFns` entry, stepped in lock-step, owning
 * autoreset for any Env. Sub-envs step concurrently (their promises are awaited together),
 * which for synchronous envs such as CartPole is the same as one after the other.
 */
export class SyncVectorEnv<Obs, Act, RInfo = object, SInfo = object> implements VectorEnv<Obs, Act, RInfo, SInfo> {
  readonly envs: readonly Env<Obs, Act, RInfo, SInfo>[];
  readonly numEnvs: number;
  readonly autoresetMode: AutoresetMode;
  readonly singleObservationSpace: Space;
  readonly singleActionSpace: Space;
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  /** next-step mode (or a failed reset): env i resets on the next step. */
  private needsReset: boolean[];
  private readonly lastObservation: (Obs | undefined)[];
  private started = false;
  private closed = false;

  constructor(
    envFns: readonly EnvFn<Obs, Act, RInfo, SInfo>[],
    private readonly options: SyncVectorEnvOptions<Act> = {},
  ) {
    if (envFns.length < 1) throw new ArcadeGymError('INVALID_OPTIONS', 'SyncVectorEnv needs at least one env');
    this.envs = envFns.map((fn) => fn());
    this.numEnvs = this.envs.length;
    this.autoresetMode = options.autoreset ?? 'next-step';
    this.singleObservationSpace = this.envs[0].observationSpace;
    this.singleActionSpace = this.envs[0].actionSpace;
    this.observationSpace = batchSpace(this.singleObservationSpace, this.numEnvs);
    this.actionSpace = batchSpace(this.singleActionSpace, this.numEnvs);
    this.needsReset = new Array(this.numEnvs).fill(false);
    this.lastObservation = new Array(this.numEnvs).fill(undefined);
  }

  async reset(options: VectorResetOptions = {}): Promise<VectorResetResult<Obs, RInfo>> {
    this.assertOpen();
    const seeds = this.envs.map((_, i) => subEnvSeed(options.seed, i, this.numEnvs));
    const results = await Promise.all(this.envs.map((_, i) => this.resetOne(i, seeds[i], options.options)));
    this.started = true;
    return {
      observations: results.map((r) => r.observation),
      infos: results.map((r) => ('failure' in r ? { resetFailure: r.failure } : r.info)) as VectorResetResult<Obs, RInfo>['infos'],
    };
  }

  private async resetOne(
    i: number,
    seed?: number,
    opts?: Record<string, unknown>,
  ): Promise<ResetResult<Obs, RInfo> | { observation: Obs; failure: ResetFailure }> {
    try {
      const r = await this.envs[i].reset({ ...(seed === undefined ? {} : { seed }), ...(opts ? { options: opts } : {}) });
      this.needsReset[i] = false;
      this.lastObservation[i] = r.observation;
      return r;
    } catch (e) {
      const failure = this.options.resetFailure?.(e) ?? null;
      if (!failure) throw e;
      this.needsReset[i] = true;
      return { observation: this.lastObservation[i] as Obs, failure };
    }
  }

  async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, SInfo, RInfo>> {
    this.assertOpen();
    if (!this.started) throw new ArcadeGymError('RESET_NEEDED', 'step() called before reset(): call reset() first');
    if (actions.length !== this.numEnvs) throw new ArcadeGymError('INVALID_ACTION', `step: ${actions.length} actions for ${this.numEnvs} envs`);
    const validate = this.options.validateAction;
    if (validate) for (const [i, a] of actions.entries()) validate(a, i);
    const out: VectorStepResult<Obs, SInfo, RInfo> = {
      observations: new Array(this.numEnvs),
      rewards: new Float64Array(this.numEnvs),
      terminated: new Array(this.numEnvs).fill(false),
      truncated: new Array(this.numEnvs).fill(false),
      infos: new Array(this.numEnvs),
    };
    await Promise.all(this.envs.map((_, i) => this.stepOne(i, actions[i], out)));
    return out;
  }

  private async stepOne(i: number, action: Act, out: VectorStepResult<Obs, SInfo, RInfo>): Promise<void> {
    if (this.needsReset[i]) {
      const r = await this.resetOne(i);
      out.observations[i] = r.observation;
      if ('failure' in r) {
        out.truncated[i] = true;
        out.infos[i] = { resetFailure: r.failure } as VectorInfo<Obs, SInfo, RInfo>;
      } else {
        out.infos[i] = { autoreset: true, resetInfo: r.info } as VectorInfo<Obs, SInfo, RInfo>;
      }
      return;
    }
    const r = await this.envs[i].step(action);
    out.rewards[i] = r.reward;
    out.terminated[i] = r.terminated;
    out.truncated[i] = r.truncated;
    this.lastObservation[i] = r.observation;
    if (!(r.terminated || r.truncated)) {
      out.observations[i] = r.observation;
      out.infos[i] = r.info as VectorInfo<Obs, SInfo, RInfo>;
      return;
    }
    if (this.autoresetMode === 'next-step') {
      this.needsReset[i] = true;
      out.observations[i] = r.observation;
      out.infos[i] = r.info as VectorInfo<Obs, SInfo, RInfo>;
      return;
    }
    const next = await this.resetOne(i);
    out.observations[i] = next.observation;
    out.infos[i] = {
      finalObservation: r.observation,
      finalInfo: r.info,
      ...('failure' in next ? { resetFailure: next.failure } : { resetInfo: next.info }),
    } as VectorInfo<Obs, SInfo, RInfo>;
  }

  /** The sub-envs' snapshots and the pending autoresets; null when a sub-env keeps no state. */
  getState(): SyncVectorEnvState | null {
    if (!this.envs.every((e) => e.getState)) return null;
    return { envs: this.envs.map((e) => e.getState!()), needsReset: [...this.needsReset], started: this.started };
  }

  setState(state: unknown): void {
    const s = state as SyncVectorEnvState;
    if (!s || !Array.isArray(s.envs) || s.envs.length !== this.numEnvs || !Array.isArray(s.needsReset)) {
      throw new ArcadeGymError('INVALID_OPTIONS', `SyncVectorEnv.setState: the state is not one of ${this.numEnvs} envs`);
    }
    s.envs.forEach((e, i) => {
      const env = this.envs[i];
      if (!env.setState) throw new ArcadeGymError('INVALID_OPTIONS', `SyncVectorEnv.setState: env ${i} cannot restore a state`);
      env.setState(e);
    });
    this.needsReset = [...s.needsReset];
    this.started = s.started ?? true;
  }

  private assertOpen(): void {
    if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This vector env has been closed');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.envs.map((e) => e.close()));
  }
}
