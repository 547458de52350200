import type { Backend } from '../nn/backend';
import type { BackendChoice } from '../nn/factory';
import type { TrainingEnv } from './rollout';
import type { RunWriter } from './run-writer';

/** What both trainers take (PPO, train.ts, and GRPO, grpo.ts), given their config and metrics types. */
export interface TrainerOptions<ConfigInput, Metrics> {
  /** Any gym/core VectorEnv of flat observations and preset-index actions (CartPoleVectorEnv, a wrapped pooled env, …). */
  env: TrainingEnv;
  /** Shape of one observation: [n] for vectors, [H, W, C] (or [C, H, W], see network.pixelLayout) for pixels. */
  obsShape: readonly number[];
  numActions: number;
  config?: ConfigInput;
  /** A backend instance, or a choice for createBackend (default 'auto'). */
  backend?: Backend | BackendChoice;
  /** Called after every update with its metrics. */
  onUpdate?: (m: Metrics) => void | Promise<void>;
  /** Stop early when this returns true (checked after each update). */
  stopWhen?: (m: Metrics) => boolean;
  /** Where metrics, checkpoints and the final policy go (e.g. runDirectoryWriter(dir) in checkpoint-files.ts); nothing is written without. */
  writer?: RunWriter;
}
