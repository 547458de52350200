import { z } from 'zod';
import { Action } from './action';
import { EpisodeSettings, StickyActions } from './settings';

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

/**
 * A potential Φ over the verifier state for potential-based shaping, γΦ(s′) − Φ(s) (Ng et al. 1999:
 * it leaves the optimal policy unchanged; Φ of a terminal state is 0).
 * `stack`: a stacking game's board (`state.board`, rows top first, non-zero = filled, as Tetris's
 * verifier reads it), Φ = −(holes·holes + height·aggregate height + bumpiness·Σ|hᵢ − hᵢ₊₁|).
 * `distance`: two grid positions of the state (`state[from]`, `state[to]`, each [x, y]: Snake's head
 * and food), Φ = −scale·(|Δx| + |Δy|), so a step toward the target earns what a step away costs.
 */
const StackPotential = z.strictObject({
  kind: z.literal('stack'),
  holes: z.number().finite().min(0).default(0),
  height: z.number().finite().min(0).default(0),
  bumpiness: z.number().finite().min(0).default(0),
  /** γ of γΦ(s′) − Φ(s): the learner's discount keeps the optimal policy exactly. */
  gamma: z.number().min(0).max(1).default(1),
});
const DistancePotential = z.strictObject({
  kind: z.literal('distance'),
  /** The state's field holding the mover's [x, y] (Snake: head). */
  from: z.string().min(1),
  /** The state's field holding the target's [x, y] (Snake: food). */
  to: z.string().min(1),
  scale: z.number().finite().positive().default(1),
  gamma: z.number().min(0).max(1).default(1),
});
export const ShapingPotential = z.discriminatedUnion('kind', [StackPotential, DistancePotential]);
export type ShapingPotential = z.infer<typeof ShapingPotential>;

export const RewardShaping = z.strictObject({
  /** Added to every step's reward (usually negative: a length penalty). */
  perStep: z.number().finite().default(0),
  /** Added on the step that terminates the episode. */
  terminal: z.number().finite().default(0),
  // The fields below are optional with no default, so a config (and every episode record) without
  // them keeps its bytes: they appear only where they were asked for.
  /**
   * Added on a step after which the verifier state is exactly the one before it: the action changed
   * nothing (a 2048 move into a wall, a bump in a maze). Usually negative.
   */
  noOp: z.number().finite().optional(),
  /** Potential-based shaping from the verifier state, see ShapingPotential. */
  potential: ShapingPotential.optional(),
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
  /** Sticky actions repeated the previous step's action here (`action` is what the game received). */
  repeated: z.literal(true).optional(),
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
  /** Present when sticky actions were on: `actions` are what the game received. */
  stickyActions: StickyActions.optional(),
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
