import { z } from 'zod';
import { GuiAction } from './action';

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
  canvas: z.strictObject({
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    /** CSS selector of the element observations read; defaults to the largest canvas. */
    selector: z.string().optional(),
  }),
  stepBudget: z.number().int().positive().default(100),
  msPerStep: z.number().positive(),
  preset: z.array(PresetEntry).min(1),
  humanReference: HumanReference,
  /** Suites this game belongs to (see `arcade-gym eval --suite`). */
  suites: z.array(z.string()).default(['core']),
  /** Entry page relative to the game folder; third-party games may name their own. */
  entry: z.string().default('index.html'),
});
export type GameManifest = z.infer<typeof GameManifest>;
export type GameManifestInput = z.input<typeof GameManifest>;
