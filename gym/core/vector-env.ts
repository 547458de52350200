import { ArcadeGymError } from '../errors';
import type { Awaitable } from './env';
import type { Space } from './spaces';

/**
 * Gymnasium's autoreset modes (gymnasium.vector.AutoresetMode):
 * - 'next-step' (Gymnasium 1.0's default): the step on which env i's episode ends returns its
 *   final observation with terminated/truncated set; on the *next* step() env i ignores its
 *   action, resets, and returns the first observation of the new episode with reward 0,
 *   terminated = truncated = false and `infos[i].autoreset = true`.
 * - 'same-step': env i resets within the step that ends its episode; that step returns the
 *   new episode's first observation, and the last one of the finished episode is in
 *   `infos[i].finalObservation` (with its info in `infos[i].finalInfo`).
 */
export type AutoresetMode = 'next-step' | 'same-step';

/** Why a sub-env could not reset (it is tried again on the next step). */
export interface ResetFailure {
  code: string;
  message: string;
}

/** Raw return and length of an episode, on the step that ends it (RecordEpisodeStatistics). */
export interface EpisodeStatistics {
  return: number;
  length: number;
}

export interface VectorResetOptions {
  /** A number seeds env i with seed + i (Gymnasium's convention); an array gives each env its own. */
  seed?: number | readonly number[];
  options?: Record<string, unknown>;
}

/** Sub-env i's info after a step: its own step info, and what the vector env adds. */
export type VectorInfo<Obs, SInfo = object, RInfo = object> = Partial<SInfo> & {
  /** next-step mode: this env was reset on this step; its action was ignored. */
  autoreset?: boolean;
  /** same-step mode: the last observation and info of the episode that ended on this step. */
  finalObservation?: Obs;
  finalInfo?: SInfo;
  /** The reset info of the episode this observation starts (on autoreset). */
  resetInfo?: RInfo;
  /** This env could not reset: it is reported truncated and tried again on the next step. */
  resetFailure?: ResetFailure;
  /** Set by RecordEpisodeStatistics on the step an episode ends. */
  episodeStatistics?: EpisodeStatistics;
};

export type VectorResetInfo<RInfo> = Partial<RInfo> & { resetFailure?: ResetFailure };

export interface VectorResetResult<Obs, RInfo = object> {
  observations: Obs[];
  infos: VectorResetInfo<RInfo>[];
}

export interface VectorStepResult<Obs, SInfo = object, RInfo = object> {
  observations: Obs[];
  rewards: Float64Array;
  terminated: boolean[];
  truncated: boolean[];
  infos: VectorInfo<Obs, SInfo, RInfo>[];
}

/**
 * Gymnasium's VectorEnv: `numEnvs` copies of one env stepped together, with batched spaces
 * next to the single env's (all known before the first reset) and one autoreset mode.
 */
export interface VectorEnv<Obs = unknown, Act = unknown, RInfo = object, SInfo = object> {
  readonly numEnvs: number;
  readonly autoresetMode: AutoresetMode;
  readonly singleObservationSpace: Space;
  readonly singleActionSpace: Space;
  /** batchSpace of the single spaces. */
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  reset(options?: VectorResetOptions): Awaitable<VectorResetResult<Obs, RInfo>>;
  /** One action per sub-env. */
  step(actions: readonly Act[]): Awaitable<VectorStepResult<Obs, SInfo, RInfo>>;
  close(): Awaitable<unknown>;
  /** Optional: a JSON-serialisable snapshot, stored in checkpoints so resumed runs continue exactly. */
  getState?(): unknown;
  setState?(state: unknown): void;
}

/** The seed of env i for a vector reset's `seed` (undefined: it continues its own sequence). */
export function subEnvSeed(seed: number | readonly number[] | undefined, i: number, numEnvs: number): number | undefined {
  if (seed === undefined) return undefined;
  if (typeof seed === 'number') return (seed + i) >>> 0;
  if (seed.length !== numEnvs) throw new ArcadeGymError('INVALID_OPTIONS', `reset: ${seed.length} seeds for ${numEnvs} envs`);
  return seed[i];
}
