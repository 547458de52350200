/**
 * What a job row holds, one zod schema per queue: the one source of truth the enqueuer writes
 * and the worker reads back (a row that does not parse fails visibly, it is never guessed at).
 * Rows hold no secrets and no paths of the machine that sent them: a model agent's endpoint and
 * key come from the worker's environment, a policy checkpoint travels as a content-addressed blob.
 */
import { z } from 'zod';
import { ObservationKind } from '../gym/schema';
import { GameBuild } from './build';

/** Agent settings that name something on the sending machine or a secret: never sent in a job. */
export const MACHINE_LOCAL_AGENT_OPTIONS = ['apiKey', 'baseUrl', 'transcript', 'checkpoint'] as const;

export const EvalBatchJob = z.strictObject({
  runId: z.string().min(1),
  batch: z.number().int().min(0),
  build: GameBuild,
  /** Position of the game in the run, and of the batch's first seed in the game's seed list (the output's order). */
  gameIndex: z.number().int().min(0),
  seedOffset: z.number().int().min(0),
  seeds: z.array(z.number().int()).min(1),
  agent: z.string().min(1),
  agentOptions: z.record(z.string(), z.unknown()).refine((o) => MACHINE_LOCAL_AGENT_OPTIONS.every((k) => !(k in o)), {
    message: `agent options in a job may not hold ${MACHINE_LOCAL_AGENT_OPTIONS.join(', ')}`,
  }),
  /** sha256 of a policy checkpoint stored in arcade_jobs.blobs (the ppo agent). */
  checkpointSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  observation: z.array(ObservationKind).min(1),
  maxSteps: z.number().int().positive().optional(),
});
export type EvalBatchJob = z.infer<typeof EvalBatchJob>;

export const VerifyJob = z.strictObject({
  submissionId: z.string().min(1),
  owner: z.string(),
  budgetMs: z.number().int().positive(),
  /** The builds the submission's episodes were played on; empty when its body could not be read (the job then rejects it). */
  builds: z.array(GameBuild),
});
export type VerifyJob = z.infer<typeof VerifyJob>;

/** A live ticket to play (leaderboard/live-play.ts): the worker that takes it hosts the ticket until it closes. */
export const LiveTicketJob = z.strictObject({
  ticketId: z.string().min(1),
  /** The game builds of the ticket's episodes: a worker with another build would play other games. */
  builds: z.array(GameBuild).min(1),
  /** The job's lease in seconds, renewed every third of it by the worker hosting the ticket. */
  leaseS: z.number().int().min(1).max(3600),
});
export type LiveTicketJob = z.infer<typeof LiveTicketJob>;

/** What a job needs of a worker's build, whatever its queue. */
export function buildsNeeded(queue: string, data: unknown): GameBuild[] {
  if (queue === 'eval') return [EvalBatchJob.parse(data).build];
  if (queue === 'verify') return VerifyJob.parse(data).builds;
  if (queue === 'live') return LiveTicketJob.parse(data).builds;
  return [];
}
