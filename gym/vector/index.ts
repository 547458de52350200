export { makeVectorEnv, PooledVectorEnv, BatchedVectorEnv, type ArcadeVectorEnv, type VectorEnvOptions, type AutoresetMode } from './make-vector-env';
export { makeTrainingEnv, runPlanner } from './training-env';
