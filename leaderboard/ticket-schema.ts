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
    /** Seeds per game (default 3 for evaluation, where a game counts from 3 seeds; 1 for human play). */
    seedsPerGame: z.number().int().min(1).max(MAX_TICKET_SEEDS).optional(),
    /** "human": reference play on /play/<id> (admin tokens, like human submissions). */
    purpose: z.enum(['evaluation', 'human']).default('evaluation'),
  })
  .refine((r) => (r.suite === undefined) !== (r.game === undefined), { message: 'give exactly one of "suite" or "game"' });
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

/** A ticket as the API returns it: the seeds to play and the settings to play them at. */
export const TicketJson = z.object({
  id: z.string(),
  purpose: z.enum(['evaluation', 'human', 'baseline']),
  scope: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  used: z.boolean(),
  games: z.array(TicketGame),
});
export type TicketJson = z.infer<typeof TicketJson>;
