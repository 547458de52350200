import { z } from 'zod';

/**
 * The settings an episode is played under, defined once. The env's options
 * (`gym/env/options.ts`, and through them the HTTP session body) and the episode record
 * (`records.ts`, and through it leaderboard submissions) both derive from these, so a record
 * can only carry settings the env accepts, and the other way round.
 *
 * The upper bounds are about cost: each is large enough for any game here, and small enough
 * that one request cannot hold a renderer for minutes (a step advances `msPerStep` virtual
 * milliseconds, which runs the game's frames for that long, at 60 Hz).
 */
export const SETTING_LIMITS = {
  /** Virtual milliseconds one step may advance: 10 s is 600 animation frames. */
  msPerStep: { max: 10_000 },
  /** Steps one episode may take. */
  stepBudget: { max: 1_000_000 },
  deviceScaleFactor: { max: 4 },
  /** CSS pixels per side of the page. */
  viewport: { max: 4096 },
  /** Wall-clock milliseconds a step may take before its page counts as hung. */
  stepTimeoutMs: { min: 100, max: 120_000 },
  /** Wall-clock milliseconds a reset (fresh context, page load, first frame) may take. */
  resetTimeoutMs: { min: 100, max: 300_000 },
} as const;

const L = SETTING_LIMITS;

export const MsPerStep = z.number().positive().max(L.msPerStep.max).describe('Virtual milliseconds each step advances');
export const StepBudget = z.number().int().positive().max(L.stepBudget.max).describe('The episode is truncated after this many steps');
export const DeviceScaleFactor = z.number().positive().max(L.deviceScaleFactor.max).describe('Device pixels per CSS pixel');
const side = z.number().int().positive().max(L.viewport.max);
export const Viewport = z.strictObject({ width: side, height: side }).describe('The page size in CSS pixels');
export const StepTimeoutMs = z
  .number()
  .int()
  .min(L.stepTimeoutMs.min)
  .max(L.stepTimeoutMs.max)
  .describe('A step slower than this (wall clock) counts as a hung page: the page is rebuilt and the step retried');
export const ResetTimeoutMs = z
  .number()
  .int()
  .min(L.resetTimeoutMs.min)
  .max(L.resetTimeoutMs.max)
  .describe('A reset slower than this (wall clock) fails with STEP_TIMEOUT');

export const StickyProbability = z
  .number()
  .min(0)
  .max(1)
  .describe("ALE's sticky actions: the chance that a step repeats the previous step's action instead of the one given (ALE v5 uses 0.25; 0 is off)");
const Uint32 = z
  .number()
  .int()
  .min(0)
  .max(2 ** 32 - 1);
export const StickySeed = Uint32.describe("The sticky actions' random stream (mixed with each episode's seed); without it, the episode seed alone decides");

/** A sticky episode's stream, as its record states it (gym/env/sticky-actions.ts draws from it). */
export const StickyActions = z
  .strictObject({
    p: StickyProbability.refine((p) => p > 0, 'a record states sticky actions only when they are on'),
    seed: Uint32.describe("The stream seed (the env's stickySeed, 0 without one); each episode draws from it with its own seed"),
  })
  .describe("Sticky actions: the steps whose `repeated` is true received the previous step's action");
export type StickyActions = z.infer<typeof StickyActions>;

/** What an episode record states about how it was played; re-simulation plays it the same way. */
export const EpisodeSettings = z.strictObject({
  stepBudget: StepBudget,
  msPerStep: MsPerStep,
  viewport: Viewport,
  deviceScaleFactor: DeviceScaleFactor,
});
export type EpisodeSettings = z.infer<typeof EpisodeSettings>;
