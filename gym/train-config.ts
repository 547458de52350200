/**
 * A training run's settings without the trainer: the train command's settings
 * (gym/ppo/train-settings.ts) and the per-game presets (games/<id>/train.json, read from disk:
 * Node). Light to load, so a command can check its settings before it loads gym/ppo, the trainer
 * (and the PPO/GRPO config schemas).
 */
export {
  TrainCommandConfig,
  evaluationSeeds,
  observationShape,
  pixelNetwork,
  rolloutLength,
  trainConfigProblem,
  type TrainCommandConfigInput,
} from './ppo/train-settings';
export {
  EvaluationMode,
  TrainPreset,
  loadTrainPreset,
  mergeLayers,
  parseTrainPreset,
  presetForObservation,
  resolvePpoInput,
  trainPresetPath,
} from './ppo/preset';
export { GENERIC_AGENT, GENERIC_AGENT_NAME, startingPreset, type StartingPreset } from './ppo/generic-agent';
export { configRecord, resolveTraining, TrainingSettingsError, type ResolvedTraining, type TrainingSources } from './ppo/training-run';
