/**
 * The minimal batched-environment interface the trainer consumes.
 *
 * Autoreset follows Gymnasium 1.0's vector API; the env declares which mode it uses:
 * - 'same-step': when an episode ends on step t, the env resets inside that same step();
 *   the returned obs is the first obs of the new episode and `info.finalObs[i]` holds the
 *   last obs of the finished one (Gymnasium's AutoresetMode.SAME_STEP).
 * - 'next-step' (Gymnasium 1.0's default): the step that ends an episode returns its final
 *   obs; the *next* step() call ignores that env's action and returns the reset obs with
 *   reward 0 and terminated = truncated = false (AutoresetMode.NEXT_STEP).
 * The trainer handles both natively (see rollout.ts): next-step reset transitions are masked
 * out of the loss, and truncated episodes bootstrap from V(final obs) in both modes.
 */
export type AutoresetMode = 'same-step' | 'next-step';

/** Per-env observations, or all of them flattened env-major. */
export type BatchedObs = readonly ArrayLike<number>[] | ArrayLike<number>;

export interface VectorResetResult {
  obs: BatchedObs;
}

export interface VectorStepInfo {
  /** 'same-step' mode: final observation of envs whose episode ended this step (null elsewhere). */
  finalObs?: readonly (ArrayLike<number> | null)[];
  /** Optional terminal outcome per env (e.g. +1 win, −1 loss), read by reward shaping on episode end. */
  outcome?: readonly (number | null)[];
}

export interface VectorStepResult {
  obs: BatchedObs;
  rewards: ArrayLike<number>;
  terminated: ArrayLike<boolean>;
  truncated: ArrayLike<boolean>;
  info?: VectorStepInfo;
}

export interface VectorEnvLike {
  /** Number of sub-environments. */
  readonly num: number;
  readonly autoresetMode: AutoresetMode;
  /**
   * Resets every sub-env. A number seeds env i with seed + i (Gymnasium convention); an array
   * gives each env its own seed (GRPO uses this for groups that share a start state);
   * undefined continues each env's own RNG.
   */
  reset(seed?: number | readonly number[]): VectorResetResult | Promise<VectorResetResult>;
  /** One action index per sub-env. */
  step(actions: readonly number[]): VectorStepResult | Promise<VectorStepResult>;
  /** Optional: a JSON-serialisable snapshot, stored in checkpoints so resumed runs continue exactly. */
  getState?(): unknown;
  setState?(state: unknown): void;
}
