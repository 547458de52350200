/**
 * What the ticket API takes and gives, shared by the server and `arcade-gym eval` (zod only, so the
 * CLI does not load the database side).
 */
import { z } from 'zod';

/** Seeds per game one ticket may ask for. */
export const MAX_TICKET_SEEDS = 50;

/** `POST /api/tickets`: a suite or one game. */
export const TicketRequest = z
  .strictObject({
    suite: z.string().min(1).max(64).optional(),
    game: z.string().min(1).max(64).optional(),
    /** Seeds per game (default DEFAULT_SEEDS_PER_GAME, 10, for evaluation; 1 for human play). */
    seedsPerGame: z.number().int().min(1).max(MAX_TICKET_SEEDS).optional(),
    /** "human": reference play on /play/<id> (admin tokens, like human submissions). */
    purpose: z.enum(['evaluation', 'human']).default('evaluation'),
    /**
     * "seeds" (default): the ticket gives the seeds, the holder plays them anywhere and submits the
     * records. "live": the server plays them in sessions the holder steps over HTTP
     * (`/api/live/<ticket>/reset|step|close`); the seeds stay hidden until the ticket is closed.
     */
    mode: z.enum(['seeds', 'live']).default('seeds'),
    /** A live ticket's agent name (its run is submitted by the server, under this name). */
    agent: z.string().min(1).max(64).optional(),
    /** What a live ticket's sessions observe (default state and vector, as the gym's sessions). */
    observation: z
      .array(z.enum(['state', 'vector', 'pixels', 'screenshot']))
      .min(1)
      .max(4)
      .optional(),
    /** A live episode whose next step does not come within this is ended, truncated (default 5 minutes). */
    stepDeadlineMs: z.number().int().min(1000).max(3_600_000).optional(),
    /** The size and colour of a live ticket's pixel observations (default 84 × 84 grayscale, as the gym's). */
    pixels: z
      .strictObject({ width: z.number().int().min(8).max(1024), height: z.number().int().min(8).max(1024), grayscale: z.boolean().default(true) })
      .optional(),
  })
  .refine((r) => (r.suite === undefined) !== (r.game === undefined), { message: 'give exactly one of "suite" or "game"' })
  .refine((r) => r.mode !== 'live' || r.agent !== undefined, { message: 'a live ticket needs "agent": the server submits its run', path: ['agent'] })
  .refine((r) => r.mode !== 'live' || r.purpose === 'evaluation', { message: 'live tickets are for evaluation', path: ['mode'] })
  .refine((r) => r.mode === 'live' || (r.agent === undefined && r.observation === undefined && r.stepDeadlineMs === undefined && r.pixels === undefined), {
    message: '"agent", "observation", "stepDeadlineMs" and "pixels" are for live tickets ("mode": "live")',
    path: ['mode'],
  });
export type TicketRequest = z.infer<typeof TicketRequest>;

export const TicketGame = z.object({
  gameId: z.string(),
  gameVersion: z.string(),
  verifierChecksum: z.string(),
  stepBudget: z.number().int(),
  msPerStep: z.number(),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }),
  deviceScaleFactor: z.number(),
  seeds: z.array(z.number().int()),
});

/** A ticket as the API returns it: the seeds to play (a live ticket's: empty until it is closed) and the settings to play them at. */
export const TicketJson = z.object({
  id: z.string(),
  purpose: z.enum(['evaluation', 'human', 'baseline']),
  mode: z.enum(['seeds', 'live', 'policy']).default('seeds'),
  scope: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  used: z.boolean(),
  games: z.array(TicketGame),
  /** A live ticket's play: its episodes in order, how many have ended, and where to play them. */
  live: z
    .object({
      agent: z.string(),
      observation: z.array(z.string()),
      pixels: z.object({ width: z.number().int(), height: z.number().int(), grayscale: z.boolean() }).optional(),
      episodes: z.array(z.object({ position: z.number().int(), game: z.string(), ended: z.boolean() })),
      closed: z.boolean(),
      /**
       * The base URL of the worker that plays the ticket (`<endpoint>/reset`, `/step`, `/claims`,
       * `/close`), while one does: the shortest path. The site's URLs below always work, forwarded to it.
       */
      endpoint: z.string().optional(),
      resetUrl: z.string(),
      stepUrl: z.string(),
      /** Absent from servers older than claims: a client that has claims to send says so. */
      claimsUrl: z.string().optional(),
      closeUrl: z.string(),
    })
    .optional(),
  /** A policy run's ticket (POST /api/policy-runs): the checkpoint and how its play stands. */
  policy: z
    .object({
      agent: z.string(),
      checkpointSha256: z.string(),
      mode: z.enum(['greedy', 'sample']),
      state: z.enum(['playing', 'submitted', 'failed']),
      error: z.string().optional(),
      /** The run's submission status, once it was submitted. */
      statusUrl: z.string().optional(),
    })
    .optional(),
});
export type TicketJson = z.infer<typeof TicketJson>;
