import { z } from 'zod';
import { EvaluationChoices, policyActions, trainingChoiceFields } from './preset';

/**
 * Every choice `arcade-gym train` makes besides the algorithm's own hyperparameters (those are
 * PpoConfig / GrpoConfig): named, defaulted and validated here, and written to <out>/config.json
 * with the algorithm's config so a run can be read back and repeated. Values come from the
 * defaults here, then the game's preset (games/<id>/train.json), then the flags.
 */
export const TrainCommandConfig = z
  .strictObject({
    game: z.string().min(1),
    algo: z.enum(['ppo', 'grpo'], { error: (i) => `--algo must be ppo or grpo, got "${String(i.input)}"` }).default('ppo'),
    backend: z.enum(['webgpu', 'cpu', 'auto'], { error: (i) => `--backend must be webgpu, cpu or auto, got "${String(i.input)}"` }).default('auto'),
    /** observation, pixels, totalTimesteps, numEnvs, frameStack, actions: shared with a game's preset (gym/ppo/preset.ts). */
    ...trainingChoiceFields,
    /** The algorithm's seed, and env i's first seed is seed + i. */
    seed: z.number().int().min(0).default(1),
    /** same-step: a truncated episode's final observation arrives with the step, for bootstrapping. */
    autoreset: z.enum(['next-step', 'same-step']).default('same-step'),
    /**
     * PPO's steps per env per rollout when the algorithm config gives no numSteps: the budget
     * split into about `rolloutsPerRun` rollouts, clamped to [min, max], so short runs still update.
     */
    rolloutSteps: z
      .strictObject({
        min: z.number().int().positive().default(8),
        max: z.number().int().positive().default(128),
        rolloutsPerRun: z.number().int().positive().default(4),
      })
      .prefault({}),
    /** The table after training: these agents and the trained one (greedy or sampled) on held-out seeds. */
    evaluation: EvaluationChoices.prefault({}),
  })
  // Pixels asked for over an afterstate preset (a flag wins over the preset) keep its actions, not
  // its afterstates, and config.json says so.
  .transform((c) => ({ ...c, actions: policyActions(c.actions, c.observation) }));
export type TrainCommandConfig = z.infer<typeof TrainCommandConfig>;
export type TrainCommandConfigInput = z.input<typeof TrainCommandConfig>;

/** The rollout length for a budget (see rolloutSteps). */
export function rolloutLength(c: TrainCommandConfig): number {
  const { min, max, rolloutsPerRun } = c.rolloutSteps;
  return Math.max(min, Math.min(max, Math.floor(c.totalTimesteps / c.numEnvs / rolloutsPerRun)));
}

/** Held-out evaluation seeds. */
export function evaluationSeeds(c: TrainCommandConfig): number[] {
  const e = c.evaluation;
  return Array.from({ length: e.episodes }, (_, i) => e.seedBase + c.seed * e.seedStride + i);
}

/** The shape of one observation the network reads. */
export function observationShape(c: TrainCommandConfig, featureCount: number): number[] {
  if (c.observation !== 'pixels') return [featureCount];
  // Stacked grayscale frames are [k, H, W] in memory: the CNN's channel-first layout (see pixelNetwork).
  if (c.frameStack > 1) return [c.frameStack, c.pixels.height, c.pixels.width];
  return [c.pixels.height, c.pixels.width, c.pixels.grayscale ? 1 : 3];
}

/** The network settings pixel observations need (none for vectors). */
export function pixelNetwork(c: TrainCommandConfig): { obsScale?: number; pixelLayout?: 'hwc' | 'chw' } {
  if (c.observation !== 'pixels') return {};
  return { obsScale: 1 / 255, pixelLayout: c.frameStack > 1 ? 'chw' : 'hwc' };
}

/** Settings that cannot go together, as a message (null: fine). */
export function trainConfigProblem(c: TrainCommandConfig): string | null {
  if (c.frameStack > 1 && c.observation !== 'pixels') return `frameStack ${c.frameStack} needs --observation pixels`;
  if (c.frameStack > 1 && !c.pixels.grayscale) return 'frame stacking needs grayscale pixels';
  return null;
}
