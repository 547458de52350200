import { z } from 'zod';
import { Action } from './action';
import { EpisodeSettings } from './settings';

/** Bump when a field changes meaning; readers reject versions they do not know. */
export const SCHEMA_VERSION = 1 as const;

/** What a verifier reads from the live page: the fields every game has, plus its own. */
export const VerifierState = z
  .object({
    score: z.number().finite(),
    gameOver: z.boolean(),
    level: z.number().finite().optional(),
    lives: z.number().finite().optional(),
  })
  .catchall(z.unknown());
export type VerifierState = z.infer<typeof VerifierState>;

export const RewardShaping = z.strictObject({
  /** Added to every step's reward (usually negative: a length penalty). */
  perStep: z.number().finite().default(0),
  /** Added on the step that terminates the episode. */
  terminal: z.number().finite().default(0),
});
export type RewardShaping = z.infer<typeof RewardShaping>;

export const GameIdentity = z.strictObject({
  gameId: z.string(),
  gameVersion: z.string(),
  /** sha256 (hex) of the verifier script as shipped to the page. */
  verifierChecksum: z.string().regex(/^[0-9a-f]{64}$/),
  runtimeVersion: z.string(),
});

export const StepRecord = z.strictObject({
  schemaVersion: z.literal(SCHEMA_VERSION),
  kind: z.literal('step'),
  ...GameIdentity.shape,
  /** 0-based index of the action this record follows. */
  step: z.number().int().min(0),
  action: Action,
  reward: z.number().finite(),
  score: z.number().finite(),
  terminated: z.boolean(),
  truncated: z.boolean(),
  virtualTimeMs: z.number().finite(),
  info: z.strictObject({ state: VerifierState }),
});
export type StepRecord = z.infer<typeof StepRecord>;

export const EpisodeRecord = z.strictObject({
  schemaVersion: z.literal(SCHEMA_VERSION),
  kind: z.literal('episode'),
  ...GameIdentity.shape,
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1),
  // Bounded as the env bounds its options: a record cannot claim settings the env would refuse.
  ...EpisodeSettings.shape,
  browser: z.strictObject({ name: z.string(), version: z.string() }),
  shaping: RewardShaping,
  actions: z.array(Action),
  steps: z.array(StepRecord),
  totals: z.strictObject({
    score: z.number().finite(),
    reward: z.number().finite(),
    length: z.number().int().min(0),
    terminated: z.boolean(),
    truncated: z.boolean(),
  }),
  /** Hash of the game canvas's pixels after the last step. */
  finalFrameHash: z.string(),
});
export type EpisodeRecord = z.infer<typeof EpisodeRecord>;

/**
 * JSON with keys in sorted order at every level, so equal records are equal bytes
 * whatever order the code that built them used.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v)) {
      const src = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(src).sort()) out[k] = src[k];
      return out;
    }
    return v;
  });
}
