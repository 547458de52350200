/**
 * PPO (with the UI-TARS-2 enhancements) and GRPO on the gym/nn backends. See README.md.
 */
export { train, type TrainOptions, type TrainResult, type UpdateMetrics } from './train';
export { grpo, groupAdvantages, type GrpoMetrics, type GrpoOptions, type GrpoResult } from './grpo';
export {
  GrpoConfigSchema,
  PpoConfigSchema,
  clipRange,
  parseGrpoConfig,
  parsePpoConfig,
  ppoPresets,
  type GrpoConfig,
  type GrpoConfigInput,
  type NetworkConfig,
  type PpoConfig,
  type PpoConfigInput,
} from './config';
export {
  PolicyAgent,
  encodePolicy,
  loadPolicy,
  networkFromCheckpoint,
  policyCheckpoint,
  savePolicy,
  type ActMode,
  type PolicyAgentOptions,
  type PolicyProvenance,
} from './policy-agent';
export { CHECKPOINT_MAGIC, CHECKPOINT_VERSION, decodeCheckpoint, encodeCheckpoint, type Checkpoint, type CheckpointHeader } from './checkpoint';
export { computeGae, episodeLengths, lengthAdaptiveLambda, lengthAdaptiveLambdas, valueTargets, type GaeInput } from './gae';
export { explainedVariance, pearson } from './stats';
export { RolloutCollector, TrainingWrappers, type BatchedObs, type NormalizationState, type Rollout, type TrainingEnv } from './rollout';
export type { RunWriter } from './run-writer';
export { PpoLearner, type LearnerBatch, type LearnerHyper, type LossStats } from './learner';
export { ActingSession, type ActResult } from './acting';
export { createBackend, type BackendChoice } from '../nn/factory';
export { actionOptions, wrapTrainingEnv } from './training-env';

/** A RunWriter into a directory: metrics.jsonl, checkpoint.agckpt, policy.agckpt (Node). */
export async function runDirectoryWriter(dir: string): Promise<import('./run-writer').RunWriter> {
  return (await import('./run-directory')).runDirectoryWriter(dir);
}

/** Reads a checkpoint file (Node). */
export async function loadCheckpoint(file: string): Promise<import('./checkpoint').Checkpoint> {
  return (await import('./checkpoint-files')).loadCheckpoint(file);
}

/** Writes a checkpoint (e.g. from TrainResult.checkpoint()) to a file (Node). */
export async function saveCheckpoint(file: string, ckpt: import('./checkpoint').Checkpoint): Promise<void> {
  const { encodeCheckpoint } = await import('./checkpoint');
  const { blobs: _entries, ...header } = ckpt.header;
  void _entries;
  await (await import('./checkpoint-files')).writeFileAtomic(file, encodeCheckpoint(header, Object.fromEntries(ckpt.blobs)));
}
