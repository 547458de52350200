export { makeEnv, ArcadeEnv, type StepResult, type ResetResult, type StepInfo, type ResetInfo } from './env/env';
export type { Observation, PixelObservation, Space } from './env/observation';
export { EnvOptions, type EnvOptionsInput, type ObservationKind } from './env/options';
export { ArcadeGymError, type ArcadeErrorCode } from './errors';
export { loadCatalog, getGame, gamesInSuite } from './catalog';
export { launchBrowser } from './browser/launch';
export * from './schema';
