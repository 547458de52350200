export { BrowserPool, PageSlot, type PoolStats } from './browser-pool';
export { PoolOptions, type PoolOptionsInput } from './options';
export { PooledEnv, type PooledEnvOptions } from './pooled-env';
export { ServiceError, type ServiceErrorCode } from './errors';
export type { EpisodeOutcome, FaultCause, PageState, PooledStepInfo, PooledStepResult, RecoveryEvent } from './outcome';
export { crashChannel, crashPage, hangChannel, hangPage, killBrowser, killRenderer } from './faults';
export { cpuSecondsOf, memoryOf, type Memory } from './processes';
