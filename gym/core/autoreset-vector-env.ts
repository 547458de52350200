import { ArcadeGymError } from '../errors';
import type { StepResult } from './env';
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

/** A sub-env's reset: its first observation and info, or (a reset the caller tolerates) why it failed. */
export type ResetOutcome<Obs, RInfo> = { observation: Obs; info: RInfo } | { observation: Obs | undefined; failure: ResetFailure };

/** What one sub-env did in a vector step: it stepped (and, in same-step mode after its episode ended, reset), or it only reset. */
export interface SubEnvOutcome<Obs, SInfo, RInfo> {
  step?: StepResult<Obs, SInfo>;
  reset?: ResetOutcome<Obs, RInfo>;
}

/** One vector step's work, for a backend to schedule as it can (a promise per env, a call per page). */
export interface VectorStepWork<Act> {
  /** Sub-envs to step, with their actions. */
  steps: readonly { index: number; action: Act }[];
  /** Sub-envs to reset instead of stepping (next-step autoreset, or a reset that failed before). */
  resets: readonly number[];
  /** Same-step autoreset: a sub-env whose step ends its episode resets in the same call. */
  resetOnEnd: boolean;
}

/**
 * The one owner of Gymnasium's autoreset (gymnasium.vector.AutoresetMode) for every vector env of
 * the gym: which sub-envs reset on a step, what their infos say (`autoreset` and `resetInfo`, or
 * `finalObservation`/`finalInfo` in same-step mode, `resetFailure` for a reset that failed and is
 * tried again on the next step), and the lock-step checks. A backend says only how the work is
 * done: SyncVectorEnv steps a promise per env, the batched env a call per page (gym/batch).
 */
export abstract class AutoresetVectorEnv<Obs, Act, RInfo = object, SInfo = object> implements VectorEnv<Obs, Act, RInfo, SInfo> {
  readonly numEnvs: number;
  readonly autoresetMode: AutoresetMode;
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  /** Sub-env i resets on the next step (next-step mode, or a failed reset). */
  protected needsReset: boolean[];
  protected started = false;
  protected closed = false;

  constructor(
    numEnvs: number,
    readonly singleObservationSpace: Space,
    readonly singleActionSpace: Space,
    autoreset: AutoresetMode | undefined,
  ) {
    this.numEnvs = numEnvs;
    this.autoresetMode = autoreset ?? 'next-step';
    this.observationSpace = batchSpace(singleObservationSpace, numEnvs);
    this.actionSpace = batchSpace(singleActionSpace, numEnvs);
    this.needsReset = new Array(numEnvs).fill(false);
  }

  /** Resets every sub-env, env i to `seeds[i]` (undefined: the next of its own sequence). */
  protected abstract resetEnvs(seeds: readonly (number | undefined)[], options?: Record<string, unknown>): Promise<ResetOutcome<Obs, RInfo>[]>;

  /** Does one step's work; the result has an entry for every index of `work.steps` and `work.resets`. */
  protected abstract runStep(work: VectorStepWork<Act>): Promise<Map<number, SubEnvOutcome<Obs, SInfo, RInfo>>>;

  /** Checks every action before any sub-env steps (throw to refuse the batch). */
  protected checkActions(_actions: readonly Act[]): void {}

  async reset(options: VectorResetOptions = {}): Promise<VectorResetResult<Obs, RInfo>> {
    this.assertOpen();
    const seeds = Array.from({ length: this.numEnvs }, (_, i) => subEnvSeed(options.seed, i, this.numEnvs));
    const results = await this.resetEnvs(seeds, options.options);
    this.started = true;
    results.forEach((r, i) => (this.needsReset[i] = 'failure' in r));
    return {
      observations: results.map((r) => r.observation as Obs),
      infos: results.map((r) => ('failure' in r ? { resetFailure: r.failure } : r.info)) as VectorResetResult<Obs, RInfo>['infos'],
    };
  }

  async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, SInfo, RInfo>> {
    this.assertOpen();
    if (!this.started) throw new ArcadeGymError('RESET_NEEDED', 'step() called before reset(): call reset() first');
    if (actions.length !== this.numEnvs) throw new ArcadeGymError('INVALID_ACTION', `step: ${actions.length} actions for ${this.numEnvs} envs`);
    this.checkActions(actions);
    const resets: number[] = [];
    const steps: { index: number; action: Act }[] = [];
    actions.forEach((action, index) => (this.needsReset[index] ? resets.push(index) : steps.push({ index, action })));
    const outcomes = await this.runStep({ steps, resets, resetOnEnd: this.autoresetMode === 'same-step' });
    const out: VectorStepResult<Obs, SInfo, RInfo> = {
      observations: new Array(this.numEnvs),
      rewards: new Float64Array(this.numEnvs),
      terminated: new Array(this.numEnvs).fill(false),
      truncated: new Array(this.numEnvs).fill(false),
      infos: new Array(this.numEnvs),
    };
    type Info = VectorInfo<Obs, SInfo, RInfo>;
    for (let i = 0; i < this.numEnvs; i++) {
      const { step, reset } = outcomes.get(i) ?? {};
      if (!step) {
        // A reset in place of a step: reward 0, the new episode's first observation.
        if (!reset) throw new Error(`vector step: sub-env ${i} has no outcome`);
        out.observations[i] = reset.observation as Obs;
        if ('failure' in reset) {
          out.truncated[i] = true;
          out.infos[i] = { resetFailure: reset.failure } as Info;
        } else out.infos[i] = { autoreset: true, resetInfo: reset.info } as Info;
        this.needsReset[i] = 'failure' in reset;
        continue;
      }
      out.rewards[i] = step.reward;
      out.terminated[i] = step.terminated;
      out.truncated[i] = step.truncated;
      if (!reset) {
        out.observations[i] = step.observation;
        out.infos[i] = step.info as Info;
        if (step.terminated || step.truncated) this.needsReset[i] = true;
        continue;
      }
      out.observations[i] = reset.observation as Obs;
      out.infos[i] = {
        finalObservation: step.observation,
        finalInfo: step.info,
        ...('failure' in reset ? { resetFailure: reset.failure } : { resetInfo: reset.info }),
      } as Info;
      this.needsReset[i] = 'failure' in reset;
    }
    return out;
  }

  protected assertOpen(): void {
    if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This vector env has been closed');
  }

  abstract close(): Promise<void>;
}
