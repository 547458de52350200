export { makeVectorEnv, PooledVectorEnv, BatchedVectorEnv, type ArcadeVectorEnv, type VectorEnvOptions, type AutoresetMode } from './vector-env';
export { makeTrainingEnv, runPlanner } from './training-env';
