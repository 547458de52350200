import type { Backend } from '../nn/backend';
import type { BackendChoice } from '../nn/factory';
import type { LossStats } from './learner';
import type { TrainingEnv } from './rollout';
import type { RunWriter } from './run-writer';
import { finiteOrNull } from './stats';

/** What both trainers report after every update (PPO's UpdateMetrics, GRPO's GrpoMetrics add their own). */
export interface TrainerMetrics {
  update: number;
  globalStep: number;
  learningRate: number;
  policyLoss: number | null;
  entropy: number | null;
  approxKl: number | null;
  /** Share of samples with ratio < 1 − εlow / ratio > 1 + εhigh. */
  clipFracLow: number | null;
  clipFracHigh: number | null;
  /** Share of samples whose gradient the low / high clip zeroed (A < 0 / A > 0). */
  clipActiveLow: number | null;
  clipActiveHigh: number | null;
  gradNorm: number | null;
  /** Mean raw return / length of the last `episodeWindow` episodes. */
  episodeReturnMean: number | null;
  episodeLengthMean: number | null;
  episodesWindow: number;
  episodesThisUpdate: number;
  /** Env steps of this update lost to resets that failed and were retried (an env with no page, …), and the last cause. */
  failedResets: number;
  failedResetCause: string | null;
  stepsPerSec: number;
  elapsedSeconds: number;
}

type PolicyUpdateMetrics = Pick<TrainerMetrics, 'entropy' | 'approxKl' | 'clipFracLow' | 'clipFracHigh' | 'clipActiveLow' | 'clipActiveHigh' | 'gradNorm'>;

/** The policy update's figures both trainers report, null where one is undefined (NaN: the head did not learn). */
export function policyUpdateMetrics(loss: LossStats): PolicyUpdateMetrics {
  return {
    entropy: finiteOrNull(loss.entropy),
    approxKl: finiteOrNull(loss.approxKl),
    clipFracLow: finiteOrNull(loss.clipFracLow),
    clipFracHigh: finiteOrNull(loss.clipFracHigh),
    clipActiveLow: finiteOrNull(loss.clipActiveLow),
    clipActiveHigh: finiteOrNull(loss.clipActiveHigh),
    gradNorm: finiteOrNull(loss.gradNorm),
  };
}

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
