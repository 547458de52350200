import { z } from 'zod';
import { RewardShaping } from '../schema/records';
import { DeviceScaleFactor, MsPerStep, ResetTimeoutMs, StepBudget, StepTimeoutMs, StickyProbability, StickySeed } from '../schema/settings';

/** Pixel observations: downscaled in the page (84×84 grayscale by default, the Nature-CNN's input). */
export const PixelOptions = z
  .strictObject({
    width: z.number().int().min(8).max(1024).default(84),
    height: z.number().int().min(8).max(1024).default(84),
    grayscale: z.boolean().default(true),
  })
  .prefault({});
export type PixelOptions = z.infer<typeof PixelOptions>;

export const ObservationKind = z.enum(['state', 'vector', 'pixels', 'screenshot']);
export type ObservationKind = z.infer<typeof ObservationKind>;

export const EnvOptions = z.strictObject({
  game: z.string().min(1),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(0),
  /** Which observations each step returns. */
  observation: z.union([ObservationKind, z.array(ObservationKind).min(1)]).default(['state', 'vector']),
  pixels: PixelOptions,
  screenshot: z.strictObject({ type: z.enum(['png', 'jpeg']).default('png'), quality: z.number().int().min(1).max(100).optional() }).prefault({}),
  /** Step budget: the episode is truncated after this many steps. Defaults to the game's. */
  maxSteps: StepBudget.optional(),
  /** Virtual milliseconds each step advances. Defaults to the game's. */
  msPerStep: MsPerStep.optional(),
  deviceScaleFactor: DeviceScaleFactor.default(1),
  shaping: RewardShaping.prefault({}),
  /**
   * Sticky actions (ALE's protocol against open-loop play): the chance that a step gives the
   * game the previous step's action instead of the one offered. Records say so per step, and
   * their actions are what the game received.
   */
  stickyActions: StickyProbability.default(0),
  /** The sticky actions' stream (a server keeps its own); by default each episode's seed decides. */
  stickySeed: StickySeed.optional(),
  /** A step that takes longer than this (wall clock) is treated as a hung page. */
  stepTimeoutMs: StepTimeoutMs.default(30_000),
  /** A reset (fresh context, page load, first frame) that takes longer than this fails with STEP_TIMEOUT. */
  resetTimeoutMs: ResetTimeoutMs.default(30_000),
  /**
   * Paint the page. Off by default: nobody looks at a headless page, and compositing each
   * changed frame costs several times more than the game's own logic. Observations read the
   * canvas directly and are the same either way; screenshot observations turn painting on.
   */
  paint: z.boolean().default(false),
  /**
   * After a reset without a seed (a seed sequence, as vector envs and training loops play it),
   * keep this many of the sequence's next episodes loaded in spare browser contexts in the
   * background, so that a reset swaps to one instead of loading the game
   * (`ArcadeEnv.prepareNextEpisode`). Two give each spare two episodes' time to load. Each costs
   * a page; pooled envs (and so the HTTP sessions) use none unless asked.
   */
  spares: z.number().int().min(0).max(4).default(2),
  /** Keep step records and build an episode record (on by default; the gym's recovery replays from it). */
  record: z.boolean().default(true),
});
export type EnvOptionsInput = z.input<typeof EnvOptions>;
export type EnvOptions = z.infer<typeof EnvOptions>;
