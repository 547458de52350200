import type { Space } from './spaces';

/** A value, or a promise of it: envs in the browser are asynchronous, CartPole is not. Callers always await. */
export type Awaitable<T> = T | Promise<T>;

export interface ResetOptions {
  /** Seeds the episode; without, the env continues its own seeded sequence. */
  seed?: number;
  /** Env-specific settings for this episode (Gymnasium's `options`). */
  options?: Record<string, unknown>;
}

export interface ResetResult<Obs, Info = object> {
  observation: Obs;
  info: Info;
}

export interface StepResult<Obs, Info = object> {
  observation: Obs;
  reward: number;
  /** The episode reached a terminal state of the game (the MDP ended). */
  terminated: boolean;
  /** The episode was cut short (step budget, or the gym gave up on it): bootstrap from the last observation. */
  truncated: boolean;
  info: Info;
}

/**
 * Gymnasium's Env: spaces known before the first reset, `reset` → `{ observation, info }`,
 * `step` → `{ observation, reward, terminated, truncated, info }`, `close`. Stepping after an
 * episode ended is the env's to refuse or allow; every env here refuses until `reset`.
 */
export interface Env<Obs = unknown, Act = unknown, RInfo = object, SInfo = object> {
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  reset(options?: ResetOptions): Awaitable<ResetResult<Obs, RInfo>>;
  step(action: Act): Awaitable<StepResult<Obs, SInfo>>;
  close(): Awaitable<unknown>;
  /** Optional: a JSON-serialisable snapshot of the env, so a checkpointed run resumes exactly. */
  getState?(): unknown;
  setState?(state: unknown): void;
}

/** What a vector env needs to build env i. */
export type EnvFn<Obs = unknown, Act = unknown, RInfo = object, SInfo = object> = () => Env<Obs, Act, RInfo, SInfo>;
