import { z } from 'zod';
import { GuiAction } from './action';
import { MsPerStep, StepBudget, Viewport } from './settings';

export const HumanReference = z.strictObject({
  score: z.number().finite(),
  /** "provisional" until verified human play episodes exist at the same step budget. */
  status: z.enum(['provisional', 'verified']),
  /** Where the number comes from, in words a leaderboard reader can check. */
  provenance: z.string().min(1),
  stepBudget: z.number().int().positive(),
});

export const PresetEntry = z.strictObject({
  name: z.string().min(1),
  action: GuiAction,
});

export const GameManifest = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lower-case letters, digits and dashes'),
  title: z.string().min(1),
  version: z.string().regex(/^\d+\.\d+\.\d+$/, 'a semantic version such as 1.0.0'),
  description: z.string().min(1),
  controls: z.string().min(1),
  renderer: z.enum(['2d', 'webgl', 'dom']),
  /** The viewport the game is played at: the same bounds as every episode's settings. */
  canvas: z.strictObject({
    width: Viewport.shape.width,
    height: Viewport.shape.height,
    /** CSS selector of the element observations read; defaults to the largest canvas. */
    selector: z.string().optional(),
  }),
  stepBudget: StepBudget.default(100),
  msPerStep: MsPerStep,
  preset: z.array(PresetEntry).min(1),
  humanReference: HumanReference,
  /** Suites this game belongs to (see `arcade-gym eval --suite`). */
  suites: z.array(z.string()).default(['core']),
  /** Entry page relative to the game folder; third-party games may name their own. */
  entry: z.string().default('index.html'),
  /**
   * Inputs a reset plays once the page has loaded, for a game that waits on a start screen for a
   * key or a click. They are dispatched in order at the same virtual instant; a `wait` lets one
   * animation frame pass between them. Not steps: no record, reward or step count includes them.
   */
  startActions: z.array(GuiAction).max(32).default([]),
  /**
   * Animation frames a reset advances after the start actions, before its first observation: 1
   * (the page's first frame) unless the game draws its first board in a later frame.
   */
  resetFrames: z.number().int().min(1).max(600).default(1),
});
export type GameManifest = z.infer<typeof GameManifest>;
export type GameManifestInput = z.input<typeof GameManifest>;
