/**
 * A training run's configuration without the trainer: the PPO and GRPO config schemas, the train
 * command's settings (gym/ppo/train-settings.ts) and the per-game presets (games/<id>/train.json,
 * read from disk: Node). Light to load, so commands parse settings before deciding to train;
 * gym/ppo is the trainer itself.
 */
export {
  GrpoConfigSchema,
  PpoConfigSchema,
  parseGrpoConfig,
  parsePpoConfig,
  ppoPresets,
  type GrpoConfig,
  type GrpoConfigInput,
  type NetworkConfig,
  type PpoConfig,
  type PpoConfigInput,
} from './ppo/config';
export {
  TrainCommandConfig,
  evaluationSeeds,
  observationShape,
  pixelNetwork,
  rolloutLength,
  trainConfigProblem,
  type TrainCommandConfigInput,
} from './ppo/train-settings';
export { EvaluationMode, TrainPreset, loadTrainPreset, mergeLayers, parseTrainPreset, resolvePpoInput, trainPresetPath } from './ppo/preset';
