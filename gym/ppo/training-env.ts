/**
 * What a training run puts over its game envs and what its action set asks of the trainer: one
 * wrapper stack and one set of trainer options, which `arcade-gym train`, the benches
 * (gym/vector/training-env.ts, over pages) and the in-page trainer (over its frames) all use.
 */
import { type ActionSet, decisionObservationShape, type MacroPlanner } from '../actions';
import type { CatalogEntry } from '../catalog-schema';
import type { VectorEnv } from '../core/vector-env';
import { VectorCountPrimitiveSteps } from '../core/wrappers/macro-action';
import { VectorFlatObservation } from '../core/wrappers/observation';
import { VectorFrameStackObservation } from '../core/wrappers/frame-stack';
import type { Observation } from '../env/observation';
import type { TrainCommandConfig } from './train-settings';

/**
 * Over a vector env of game envs (already seeing the planner's decisions): flattened
 * observations, stacked frames when asked, and a count of the primitive steps the episodes record
 * (`primitiveSteps`, the run's budget under macro decisions).
 */
export function wrapTrainingEnv<Act>(venv: VectorEnv<Observation, Act>, c: Pick<TrainCommandConfig, 'observation' | 'frameStack'>) {
  const flat = new VectorFlatObservation(venv, c.observation);
  return new VectorCountPrimitiveSteps(c.frameStack > 1 ? new VectorFrameStackObservation(flat, c.frameStack) : flat);
}

/** What train() takes for a run's action set (gym/ppo/train.ts's options of those names). */
export interface TrainingActionOptions {
  numActions: number;
  /** Written to the checkpoints and the policy: the policy acts through these decisions. */
  actions?: ActionSet;
  /** Stops the run at the budget's primitive steps. */
  stopWhen?: () => boolean;
  /** The decisions' [decisions, features] observation, when the policy reads them. */
  obsShape?: number[];
}

/**
 * The trainer's options for the run's action set: with macro decisions the policy has one action
 * per decision, the checkpoints say which, and the run stops once the episodes have taken the
 * budget's primitive steps (the trainer's own totalTimesteps counts decisions, which are fewer).
 * A policy that observes the decisions reads a [decisions, features] observation (the scorer network's).
 */
export function actionOptions(
  c: { actions?: ActionSet; totalTimesteps: number },
  game: CatalogEntry,
  planner: MacroPlanner<number> | null,
  env: { primitiveSteps: number },
): TrainingActionOptions {
  if (!planner) return { numActions: game.manifest.preset.length };
  const obsShape = decisionObservationShape(planner);
  return {
    numActions: planner.numDecisions,
    actions: c.actions,
    stopWhen: () => env.primitiveSteps >= c.totalTimesteps,
    ...(obsShape ? { obsShape } : {}),
  };
}
