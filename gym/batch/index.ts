export { batchProblem } from './batched-page';
export { BatchedVectorEnv } from './batched-vector-env';
export { BatchedPage, BatchPageFault, batchable, type InstanceResult } from './batched-page';
export { measureInstancesPerPage, measuredInstancesPerPage, type InstancesPerPageMeasurement } from './instances-per-page';
export type { BatchedVectorEnvOptions } from './options';
