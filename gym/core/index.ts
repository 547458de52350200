/**
 * gym/core: Gymnasium's interfaces in TypeScript. Env, VectorEnv and SyncVectorEnv, spaces,
 * wrappers, and the env checker. See README.md. Browser-safe except checkGame (check-game.ts),
 * which runs games in Chromium and is exported from gym/index.ts and gym/eval.
 */
export type { Awaitable, Env, EnvFn, ResetOptions, ResetResult, StepResult } from './env';
export {
  subEnvSeed,
  type AutoresetMode,
  type EpisodeStatistics,
  type ResetFailure,
  type VectorEnv,
  type VectorInfo,
  type VectorResetInfo,
  type VectorResetOptions,
  type VectorResetResult,
  type VectorStepResult,
} from './vector-env';
export { AutoresetVectorEnv, type ResetOutcome, type SubEnvOutcome, type VectorStepWork } from './autoreset-vector-env';
export { SyncVectorEnv, type SyncVectorEnvOptions } from './sync-vector-env';
export { actionMaskOf, writeActionMasks } from './action-mask';
export { batchSpace, boxSpace, contains, discreteSpace, whyNotContained, type Space } from './spaces';
export { checkEnv, formatCheckReport, type CheckEnvOptions, type CheckReport, type CheckResult } from './check-env';
export * from './wrappers';
