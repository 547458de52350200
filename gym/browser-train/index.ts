/**
 * The in-page trainer (bundled by gym/build/trainer-bundle.ts into public/trainer/arcade-trainer.js,
 * which sets `globalThis.ArcadeTrainer`): PPO from gym/ppo on game frames of this page or CartPole,
 * on `navigator.gpu` or the CPU backend, with the CLI's settings and file formats. See README.md.
 */
export { BrowserTrainingRun, type BrowserRunSettings, type BrowserTrainOptions, type RunStatus } from './trainer';
export { resolveRunSettings, type RunChoices } from './settings';
export { evaluatePolicy, type EvaluationOptions } from './evaluate';
export { playLiveTicket, type LivePlayOptions } from './live';
export { MemoryRunWriter, checkpointBytes } from './memory-writer';
export { FrameEnv } from './frame-env';
export { decodeCheckpoint } from '../ppo/checkpoint';
export { loadPolicy } from '../ppo/policy-agent';
export { gameSpecificActions } from '../actions';
