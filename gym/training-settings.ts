/**
 * A training run's settings, without the trainer: the train command's settings
 * (gym/ppo/train-settings.ts), the games' presets (games/<id>/train.json, read from disk), the
 * generic agent, and the one resolver that merges them (gym/ppo/training-run.ts). Its own entry
 * point because gym/ppo is browser-safe and this one reads files; the in-page trainer resolves the
 * same settings from presets it is given.
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
