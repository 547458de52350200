import { z } from 'zod';
import { RewardShaping } from '../schema/records';

/**
 * Every PPO hyperparameter, named and defaulted in one place (CleanRL's ppo.py defaults
 * plus the UI-TARS-2 enhancements, each switchable for ablations). Validate untrusted input
 * with parsePpoConfig; everything downstream uses the parsed PpoConfig.
 */

const probability = z.number().min(0).max(1);

export const NetworkConfigSchema = z
  .object({
    /**
     * 'auto': an MLP for 1-D observations, the Nature-CNN for 3-D (pixel) observations, the
     * scorer for 2-D observations with one feature row per action (decision afterstates).
     * 'keypoints': two conv layers and a spatial soft-argmax (one (x, y) per channel) before the
     * fully connected layer, for pixel games about where things are relative to each other.
     */
    kind: z.enum(['auto', 'mlp', 'cnn', 'keypoints', 'scorer']).default('auto'),
    /** MLP hidden widths (actor and critic each get their own tower; the scorer's actor is per action row). */
    hidden: z.array(z.number().int().positive()).min(1).default([64, 64]),
    activation: z.enum(['tanh', 'relu']).default('tanh'),
    /** Output channels of the three Nature-CNN conv layers. */
    cnnChannels: z.tuple([z.number().int().positive(), z.number().int().positive(), z.number().int().positive()]).default([32, 64, 64]),
    /** Width of the CNN's fully connected layer (Nature-CNN and keypoints). */
    cnnHidden: z.number().int().positive().default(512),
    /** The keypoint network's two conv layers: output channels (the second's count is the number of keypoints), kernels, strides. */
    keypoints: z
      .strictObject({
        channels: z.tuple([z.number().int().positive(), z.number().int().positive()]).default([16, 16]),
        kernels: z.tuple([z.number().int().positive(), z.number().int().positive()]).default([8, 3]),
        strides: z.tuple([z.number().int().positive(), z.number().int().positive()]).default([4, 1]),
      })
      .prefault({}),
    /** Multiplies every observation value (1/255 for raw pixel bytes). */
    obsScale: z.number().positive().default(1),
    /** Layout of 3-D observations from the env: [H, W, C] ('hwc') or [C, H, W] ('chw'). */
    pixelLayout: z.enum(['hwc', 'chw']).default('hwc'),
  })
  .strict();

export const ClipHigherSchema = z
  .object({
    /** Off: symmetric clipping with clipCoef (standard PPO). */
    enabled: z.boolean().default(true),
    /** Lower clip: ratio floor 1 − epsLow. */
    epsLow: z.number().positive().default(0.2),
    /** Upper clip: ratio ceiling 1 + epsHigh (> epsLow leaves room to raise unlikely actions). */
    epsHigh: z.number().positive().default(0.28),
  })
  .strict();

export const DecoupledGaeSchema = z
  .object({
    /** Off: gaeLambda for both advantages and value targets. */
    enabled: z.boolean().default(true),
    /** λ for the policy's advantages. */
    lambdaPolicy: probability.default(0.95),
    /** λ for the critic's targets (1.0 = Monte-Carlo returns, unbiased by the critic). */
    lambdaCritic: probability.default(1.0),
  })
  .strict();

export const LengthAdaptiveGaeSchema = z
  .object({
    /** On: λ_policy = max(minLambda, 1 − 1/(alpha·l)) per episode of length l (overrides lambdaPolicy). */
    enabled: z.boolean().default(false),
    alpha: z.number().positive().default(0.05),
    /** Floor: the formula is ≤ 0 for l ≤ 1/alpha (20 steps at alpha 0.05). */
    minLambda: probability.default(0.9),
  })
  .strict();

export const ValuePretrainSchema = z
  .object({
    /** On: before PPO, train only the critic on Monte-Carlo returns of the fixed initial policy. */
    enabled: z.boolean().default(false),
    /** Hard cap on pretraining iterations (one rollout + critic update each). */
    maxIterations: z.number().int().positive().default(50),
    /** Stop once the critic's value loss is at most this (null: no loss criterion). */
    maxValueLoss: z.number().positive().nullable().default(null),
    /** …and its explained variance on fresh rollouts is at least this. */
    minExplainedVariance: z.number().max(1).default(0.8),
  })
  .strict();

/**
 * Reward shaping is gym/core's one config, { perStep, terminal } (the env option `shaping` has
 * the same schema), applied by the RewardShaping wrapper: the learner sees shaped rewards,
 * logged episode returns stay raw. Defaults shape nothing.
 */
export const RewardShapingSchema = RewardShaping.prefault({});

export const NormalizeObservationSchema = z
  .object({
    /** On: observations are normalised by a running mean and variance (Gymnasium's NormalizeObservation), kept in checkpoints and policies. */
    enabled: z.boolean().default(false),
    epsilon: z.number().positive().default(1e-8),
  })
  .strict();

export const NormalizeRewardSchema = z
  .object({
    /**
     * On (default): rewards are divided by the running std of the discounted return (Gymnasium's NormalizeReward).
     * Game rewards range from 1 per cell to hundreds per merge; unscaled, a fresh critic's loss dwarfs the policy's
     * gradient under the global norm clip (measured on 2048, platformer and snake, see games/<id>/train.json).
     */
    enabled: z.boolean().default(true),
    /** Discount of that running return; null: the run's gamma. */
    gamma: probability.nullable().default(null),
    epsilon: z.number().positive().default(1e-8),
  })
  .strict();

/**
 * Configs written before reward shaping became one config had
 * { enabled, stepPenalty, terminationBonus, outcomeBonus }: read them as { perStep, terminal }.
 * (outcomeBonus multiplied an outcome no env ever reported, so it had no effect.)
 */
function migrateLegacy(input: unknown): unknown {
  if (!input || typeof input !== 'object') return input;
  const rs = (input as { rewardShaping?: unknown }).rewardShaping as Record<string, unknown> | undefined;
  if (!rs || typeof rs !== 'object' || !('stepPenalty' in rs || 'terminationBonus' in rs || 'outcomeBonus' in rs || 'enabled' in rs)) return input;
  const on = rs.enabled === true;
  const stepPenalty = typeof rs.stepPenalty === 'number' ? rs.stepPenalty : 0;
  const terminal = typeof rs.terminationBonus === 'number' ? rs.terminationBonus : 0;
  return { ...input, rewardShaping: on ? { perStep: stepPenalty === 0 ? 0 : -stepPenalty, terminal } : {} };
}

export const PpoConfigSchema = z
  .object({
    seed: z.number().int().nonnegative().default(1),
    totalTimesteps: z.number().int().positive().default(500_000),
    /** Steps per env per rollout. */
    numSteps: z.number().int().positive().default(128),
    /**
     * 1e-3 rather than CleanRL's 2.5e-4: with the 64×64 networks and budgets of 10⁴–10⁵ steps used here, 2.5e-4
     * annealed to 0 left the policy unchanged on snake, while 1e-3 learned snake, path-of-light, platformer and
     * wood-blocks-3d (measurements behind games/<id>/train.json).
     */
    learningRate: z.number().positive().default(1e-3),
    /** Linearly anneal the learning rate to 0 over the run (off: short runs need every update's step). */
    annealLr: z.boolean().default(false),
    gamma: probability.default(0.99),
    /** λ when decoupled GAE is off. */
    gaeLambda: probability.default(0.95),
    numMinibatches: z.number().int().positive().default(4),
    updateEpochs: z.number().int().positive().default(4),
    /** Standardise advantages over the whole batch. */
    normAdv: z.boolean().default(true),
    /**
     * Draw and learn actions under the env's action masks (`info.actionMask`, MaskablePPO) when it
     * gives them, one entry per policy action: masked actions get probability 0 in sampling, in the
     * entropy and in the policy gradient. Envs without masks are unaffected.
     */
    maskActions: z.boolean().default(true),
    /** Symmetric policy clip when clip-higher is off; also the value-loss clip. */
    clipCoef: z.number().positive().default(0.2),
    clipVloss: z.boolean().default(true),
    entCoef: z.number().min(0).default(0.01),
    vfCoef: z.number().min(0).default(0.5),
    /** Global gradient-norm clip; 0 disables. */
    maxGradNorm: z.number().min(0).default(0.5),
    /** Stop an update's epochs early when the epoch's mean approximate KL exceeds this. */
    targetKl: z.number().positive().nullable().default(null),
    adamBeta1: probability.default(0.9),
    adamBeta2: probability.default(0.999),
    adamEps: z.number().positive().default(1e-5),
    clipHigher: ClipHigherSchema.prefault({}),
    decoupledGae: DecoupledGaeSchema.prefault({}),
    lengthAdaptiveGae: LengthAdaptiveGaeSchema.prefault({}),
    valuePretrain: ValuePretrainSchema.prefault({}),
    rewardShaping: RewardShapingSchema,
    normalizeObservation: NormalizeObservationSchema.prefault({}),
    normalizeReward: NormalizeRewardSchema.prefault({}),
    network: NetworkConfigSchema.prefault({}),
    /** Episodes in the moving window behind episodeReturnMean / episodeLengthMean. */
    episodeWindow: z.number().int().positive().default(20),
    /** Write a training checkpoint every this many updates (0: only at the end). */
    checkpointEvery: z.number().int().min(0).default(0),
    /**
     * A run resumed without its env state resets the envs with seed + update × this (a prime,
     * so the restarted episodes do not replay the first update's start seeds).
     */
    resumeResetSeedStride: z.number().int().positive().default(7919),
  })
  .strict();

export type PpoConfig = z.output<typeof PpoConfigSchema>;
export type PpoConfigInput = z.input<typeof PpoConfigSchema>;
export type NetworkConfig = z.output<typeof NetworkConfigSchema>;

/** Validates and fills defaults; throws a readable error listing every problem. */
export function parsePpoConfig(input: unknown = {}): PpoConfig {
  const result = PpoConfigSchema.safeParse(migrateLegacy(input));
  if (!result.success) throw new Error(`invalid PPO config:\n${z.prettifyError(result.error)}`);
  return result.data;
}

/** The PPO ratio clip range actually used. */
export function clipRange(c: PpoConfig): { epsLow: number; epsHigh: number } {
  return c.clipHigher.enabled ? { epsLow: c.clipHigher.epsLow, epsHigh: c.clipHigher.epsHigh } : { epsLow: c.clipCoef, epsHigh: c.clipCoef };
}

/** Named starting points for ablations. */
export const ppoPresets = {
  /** CleanRL ppo.py: symmetric clip, one λ, no extras. */
  cleanrl: {
    clipHigher: { enabled: false },
    decoupledGae: { enabled: false },
    lengthAdaptiveGae: { enabled: false },
    valuePretrain: { enabled: false },
  },
  /** The UI-TARS-2 recipe: clip-higher, decoupled and length-adaptive GAE, value pretraining. */
  uiTars2: {
    clipHigher: { enabled: true, epsLow: 0.2, epsHigh: 0.28 },
    decoupledGae: { enabled: true, lambdaCritic: 1.0 },
    lengthAdaptiveGae: { enabled: true, alpha: 0.05 },
    valuePretrain: { enabled: true },
  },
} satisfies Record<string, PpoConfigInput>;

export const GrpoConfigSchema = z
  .object({
    seed: z.number().int().nonnegative().default(1),
    /** Stop after this many env steps (counting only steps inside group episodes). */
    totalTimesteps: z.number().int().positive().default(500_000),
    /** Episodes per group; every env of a group starts from the same seed. env.numEnvs must be a multiple. */
    groupSize: z.number().int().min(2).default(8),
    /** Episodes longer than this are cut (their return so far is used). */
    maxEpisodeSteps: z.number().int().positive().default(500),
    learningRate: z.number().positive().default(2.5e-4),
    annealLr: z.boolean().default(true),
    minibatchSize: z.number().int().positive().default(512),
    updateEpochs: z.number().int().positive().default(4),
    entCoef: z.number().min(0).default(0.0),
    maxGradNorm: z.number().min(0).default(0.5),
    adamBeta1: probability.default(0.9),
    adamBeta2: probability.default(0.999),
    adamEps: z.number().positive().default(1e-5),
    clipHigher: ClipHigherSchema.prefault({}),
    /** Symmetric clip when clip-higher is off. */
    clipCoef: z.number().positive().default(0.2),
    rewardShaping: RewardShapingSchema,
    network: NetworkConfigSchema.prefault({}),
    episodeWindow: z.number().int().positive().default(20),
  })
  .strict();

export type GrpoConfig = z.output<typeof GrpoConfigSchema>;
export type GrpoConfigInput = z.input<typeof GrpoConfigSchema>;

export function parseGrpoConfig(input: unknown = {}): GrpoConfig {
  const result = GrpoConfigSchema.safeParse(migrateLegacy(input));
  if (!result.success) throw new Error(`invalid GRPO config:\n${z.prettifyError(result.error)}`);
  return result.data;
}
