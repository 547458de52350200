import { ArcadeGymError } from '../errors';
import { AutoresetVectorEnv, type ResetOutcome, type SubEnvOutcome, type VectorStepWork } from './autoreset-vector-env';
import type { Env, EnvFn } from './env';
import type { AutoresetMode, ResetFailure } from './vector-env';

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
 * Gymnasium's SyncVectorEnv: one env per `envFns` entry, stepped in lock-step, for any Env
 * (autoreset is the base's, AutoresetVectorEnv). Sub-envs step concurrently (their promises are
 * awaited together), which for synchronous envs such as CartPole is the same as one after the
 * other; a sub-env that must reset does so beside the others' steps.
 */
export class SyncVectorEnv<Obs, Act, RInfo = object, SInfo = object> extends AutoresetVectorEnv<Obs, Act, RInfo, SInfo> {
  readonly envs: readonly Env<Obs, Act, RInfo, SInfo>[];
  private readonly lastObservation: (Obs | undefined)[];

  constructor(
    envFns: readonly EnvFn<Obs, Act, RInfo, SInfo>[],
    private readonly options: SyncVectorEnvOptions<Act> = {},
  ) {
    if (envFns.length < 1) throw new ArcadeGymError('INVALID_OPTIONS', 'SyncVectorEnv needs at least one env');
    const envs = envFns.map((fn) => fn());
    super(envs.length, envs[0].observationSpace, envs[0].actionSpace, options.autoreset);
    this.envs = envs;
    this.lastObservation = new Array(this.numEnvs).fill(undefined);
  }

  protected override checkActions(actions: readonly Act[]): void {
    const validate = this.options.validateAction;
    if (validate) for (const [i, a] of actions.entries()) validate(a, i);
  }

  protected resetEnvs(seeds: readonly (number | undefined)[], opts?: Record<string, unknown>): Promise<ResetOutcome<Obs, RInfo>[]> {
    return Promise.all(this.envs.map((_, i) => this.resetOne(i, seeds[i], opts)));
  }

  private async resetOne(i: number, seed?: number, opts?: Record<string, unknown>): Promise<ResetOutcome<Obs, RInfo>> {
    try {
      const r = await this.envs[i].reset({ ...(seed === undefined ? {} : { seed }), ...(opts ? { options: opts } : {}) });
      this.lastObservation[i] = r.observation;
      return r;
    } catch (e) {
      const failure = this.options.resetFailure?.(e) ?? null;
      if (!failure) throw e;
      return { observation: this.lastObservation[i], failure };
    }
  }

  protected async runStep(work: VectorStepWork<Act>): Promise<Map<number, SubEnvOutcome<Obs, SInfo, RInfo>>> {
    const outcomes = new Map<number, SubEnvOutcome<Obs, SInfo, RInfo>>();
    await Promise.all([
      ...work.resets.map(async (i) => void outcomes.set(i, { reset: await this.resetOne(i) })),
      ...work.steps.map(async ({ index: i, action }) => {
        const step = await this.envs[i].step(action);
        this.lastObservation[i] = step.observation;
        const ended = step.terminated || step.truncated;
        outcomes.set(i, ended && work.resetOnEnd ? { step, reset: await this.resetOne(i) } : { step });
      }),
    ]);
    return outcomes;
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

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.envs.map((e) => e.close()));
  }
}
