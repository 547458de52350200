/**
 * What `POST /api/runs` accepts, shared by the server and `arcade-gym submit`. Episodes are the
 * gym's own EpisodeRecord schema: one source of truth for what an episode is.
 */
import { z } from 'zod';
import { ObservationKind } from '../gym/env/options';
import { EpisodeRecord } from '../gym/schema/records';

/** Most episodes one submission may carry (a 19-game suite × 3 seeds is 57). */
export const MAX_EPISODES_PER_RUN = 500;

export const AgentName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit');

export const RunSettings = z.strictObject({
  /** The observations the agent was given (eval's --observation). */
  observation: z.array(ObservationKind).min(1).max(4),
  /** The agent program or harness (e.g. "ppo", "ui-tars-harness"). */
  harness: z.string().max(200).optional(),
  /** The model behind the agent, if any. */
  model: z.string().max(200).optional(),
  /** A commit or version of the agent's code. */
  codeVersion: z.string().max(200).optional(),
});
export type RunSettings = z.infer<typeof RunSettings>;

export const LearningCurvePoint = z.strictObject({
  step: z.number().int().min(0),
  meanReturn: z.number().finite(),
});

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
  learningCurve: z.array(LearningCurvePoint).max(10_000).optional(),
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
