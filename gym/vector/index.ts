export { makeVectorEnv, VectorEnv, type VectorEnvOptions, type VectorStepResult, type VectorResetResult, type VectorInfo, type AutoresetMode } from './vector-env';
export { asFeatureVectorEnv, type FeatureVectorEnv } from './feature-env';
