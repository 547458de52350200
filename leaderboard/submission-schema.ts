/**
 * What `POST /api/runs` accepts, shared by the server and `arcade-gym submit`. Episodes are the
 * gym's own EpisodeRecord schema: one source of truth for what an episode is.
 */
import { z } from 'zod';
import { ObservationKind, EpisodeRecord } from '../gym/schema';

/** Most episodes one submission may carry (a 21-game suite at the default 10 seeds is 210). */
export const MAX_EPISODES_PER_RUN = 500;

export const AgentName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit');

/** The most bytes a run's training config may take as JSON: room for any PPO config, not for a payload. */
export const MAX_TRAINING_CONFIG_BYTES = 64 * 1024;

/**
 * What a training run says about itself. The server cannot check any of it (it replays the
 * evaluation episodes, not the training), so it is stored and shown as claimed.
 */
export const TrainingSettings = z
  .strictObject({
    /** The learning algorithm (e.g. "ppo", "grpo"). */
    algorithm: z.string().min(1).max(64),
    /** The tensor backend the policy was trained on (e.g. "webgpu", "cpu"). */
    backend: z.string().min(1).max(64),
    /** Environment steps the run trained for. */
    totalTimesteps: z.number().int().min(0),
    /** sha256 (hex) of the policy checkpoint that played the episodes. */
    checkpointSha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lowercase hex (64 characters)'),
    /** The resolved settings of the run (`arcade-gym train`'s config.json), at most 64 KiB of JSON. */
    config: z
      .record(z.string(), z.unknown())
      .refine((c) => new TextEncoder().encode(JSON.stringify(c)).length <= MAX_TRAINING_CONFIG_BYTES, `at most ${MAX_TRAINING_CONFIG_BYTES} bytes of JSON`)
      .describe(`The resolved training settings (arcade-gym train's config.json), at most ${MAX_TRAINING_CONFIG_BYTES} bytes of JSON`),
    /** The policy acts through the game's own planner or reads its own features (a game-specific preset); the leaderboard shows it. */
    gameSpecific: z
      .boolean()
      .optional()
      .describe(
        "True when the policy acts through the game's own planner or reads its own features (a game-specific preset, games/<id>/train.json), not only the verifier's vector over the preset's keys; the leaderboard labels such runs",
      ),
  })
  .describe(
    'How a trained agent was trained (arcade-gym train --submit). Stored and shown as claimed: the server replays the evaluation episodes, not the training.',
  );
export type TrainingSettings = z.infer<typeof TrainingSettings>;

export const RunSettings = z.strictObject({
  /** The observations the agent was given (eval's --observation). */
  observation: z.array(ObservationKind).min(1).max(4),
  /** The agent program or harness (e.g. "ppo", "ui-tars-harness"). */
  harness: z.string().max(200).optional(),
  /** The model behind the agent, if any. */
  model: z.string().max(200).optional(),
  /** A commit or version of the agent's code. */
  codeVersion: z.string().max(200).optional(),
  /** How a trained agent was trained (`arcade-gym train --submit`); stored and shown as claimed. */
  training: TrainingSettings.optional(),
});
export type RunSettings = z.infer<typeof RunSettings>;

/** A finite metric of one update; absent when the update had none (no episode ended, no critic). */
const metric = z.number().finite().optional();

/** One point of a training run's learning curve (one PPO update; metrics.jsonl's names). */
export const LearningCurvePoint = z.strictObject({
  /** Environment steps so far. */
  step: z.number().int().min(0),
  /** Mean raw episode return of the recent episodes. */
  meanReturn: z.number().finite(),
  /** The update's index (1-based; 0 while the critic is pretrained). */
  update: z.number().int().min(0).optional(),
  meanLength: metric,
  policyLoss: metric,
  valueLoss: metric,
  entropy: metric,
  approxKl: metric,
  explainedVariance: metric,
  learningRate: metric,
});
export type LearningCurvePoint = z.infer<typeof LearningCurvePoint>;

/** Most points a learning curve may carry (`train --submit` thins longer runs to this). */
export const MAX_LEARNING_CURVE_POINTS = 10_000;

/** A learning curve: points in order of environment steps. */
export const LearningCurve = z
  .array(LearningCurvePoint)
  .max(MAX_LEARNING_CURVE_POINTS)
  .superRefine((points, ctx) => {
    for (let i = 1; i < points.length; i++) {
      if (points[i].step < points[i - 1].step) {
        ctx.addIssue({ code: 'custom', path: [i, 'step'], message: `steps must not decrease (${points[i].step} after ${points[i - 1].step})` });
        return;
      }
    }
  })
  .describe(
    `A training run's learning curve, one point per update in order of environment steps (never decreasing), at most ${MAX_LEARNING_CURVE_POINTS} points. Stored and shown as claimed.`,
  );
export type LearningCurve = z.infer<typeof LearningCurve>;

/**
 * What a live ticket's player says about its agent (`POST /api/live/<ticket>/claims`), before its
 * last episode ends: the run the server submits carries it, stored and shown as claimed, as a
 * submitted run's own settings and learning curve are.
 */
export const LiveClaims = z.strictObject({
  harness: RunSettings.shape.harness,
  model: RunSettings.shape.model,
  codeVersion: RunSettings.shape.codeVersion,
  training: TrainingSettings.optional(),
  learningCurve: LearningCurve.optional(),
});
export type LiveClaims = z.infer<typeof LiveClaims>;

export const RunSubmission = z.strictObject({
  /** The client's idempotency id: sending the same id again gets the same answer and stores nothing new. */
  id: z
    .string()
    .min(8)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits, ".", "_", ":" and "-"'),
  /** The agent's name; for kind "human", the player's. */
  agent: AgentName,
  /** "human": reference play by a person (admin tokens only); it feeds the games' human references. */
  kind: z.enum(['evaluation', 'training', 'human']).default('evaluation'),
  settings: RunSettings,
  /** A training run's learning curve (one point per update), stored and shown as claimed. */
  learningCurve: LearningCurve.optional(),
  /** The evaluation ticket the episodes play (POST /api/tickets). Without one the run is stored unranked. */
  ticket: z
    .string()
    .min(8)
    .max(64)
    .regex(/^tkt_[A-Za-z0-9_-]+$/, 'a ticket id (tkt_…)')
    .optional(),
  episodes: z.array(EpisodeRecord).min(1).max(MAX_EPISODES_PER_RUN),
});
export type RunSubmission = z.infer<typeof RunSubmission>;
export type RunSubmissionInput = z.input<typeof RunSubmission>;

/** Where a submission's status document is read (GET). */
export const statusUrl = (id: string) => `/api/submissions/${id}`;

/** The stable error shape of every 4xx/5xx answer. */
export const ApiErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export const AcceptedEpisode = z.object({
  id: z.number().int(),
  gameId: z.string(),
  seed: z.number(),
  score: z.number(),
  length: z.number(),
  ranked: z.boolean(),
  /** Why the episode does not count (null when it does). */
  unrankedReason: z.string().nullable(),
  /** Its run played an evaluation ticket. */
  ticketed: z.boolean(),
  /** Always "verified": the server replayed it and stored the replay. */
  verification: z.string(),
  replayUrl: z.string(),
});

/** The stored run, once verification accepted it (the result of a submission's status). */
export const AcceptedRun = z.object({
  run: z.object({
    id: z.string(),
    clientId: z.string(),
    url: z.string(),
    agent: z.string(),
    kind: z.string(),
    ticket: z.string().nullable(),
    episodes: z.number().int(),
    ranked: z.number().int(),
    /** Why the run as a whole is not ranked (null when its episodes may count). */
    unrankedReason: z.string().nullable(),
    games: z.array(z.string()),
  }),
  episodes: z.array(AcceptedEpisode),
});
export type AcceptedRun = z.infer<typeof AcceptedRun>;

export const SubmissionState = z.enum(['queued', 'verifying', 'accepted', 'rejected']);
export type SubmissionState = z.infer<typeof SubmissionState>;

/**
 * Where a submission stands: the answer to `POST /api/runs` (202) and to its status URL. Once
 * accepted it carries the stored run; once rejected, the error (the same shape as any API error).
 */
export const SubmissionStatus = z.object({
  submission: z.object({
    id: z.string(),
    clientId: z.string(),
    status: SubmissionState,
    statusUrl: z.string(),
    ticket: z.string().nullable(),
    episodes: z.number().int(),
    steps: z.number().int(),
    /** Episodes replayed so far. */
    verified: z.number().int(),
    /** Wall-clock milliseconds verification may take once it starts. */
    budgetMs: z.number().int(),
    /** Submissions that will be verified before this one (while queued). */
    queuePosition: z.number().int().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
  }),
  result: AcceptedRun.optional(),
  error: ApiErrorBody.shape.error.optional(),
});
export type SubmissionStatus = z.infer<typeof SubmissionStatus>;
