/**
 * One episode against the in-page runtime, run the same way by the gym (Node) and by the site's
 * player (a page), so both give the same records: the runtime's protocol, the reset plan, how an
 * action resolves, how a page reading becomes an observation and an info (page-result.ts), and the
 * EpisodeAccount that turns verifier states into rewards and records.
 * Browser-safe. See gym/README.md.
 */
export { EpisodeAccount, RESET_ADVANCE_MS, type StepOutcome } from './env/episode-account';
export { gameIdentity, observationRequest, pageObservation, type PageReading, resetInfo, stepInfo } from './env/page-result';
export { resetPlan } from './env/reset-plan';
export { resolveAction } from './env/resolve-action';
export {
  RUNTIME_VERSION,
  type ArcadeRuntimeApi,
  type ObservationRequest,
  type PageStepRequest,
  type PageStepResult,
  type RuntimeConfig,
} from './runtime/protocol';
