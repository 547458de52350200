export { makeVectorEnv, PooledVectorEnv, type VectorEnvOptions, type AutoresetMode } from './vector-env';
