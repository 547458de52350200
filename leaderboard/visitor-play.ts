/**
 * Human reference play by any visitor of /play, without a token: `POST /api/play/tickets` draws
 * a seed for a named player (registering the name, with a key the browser keeps, on first use),
 * and `POST /api/play/runs` hands in the episode, which is replayed like any run. The episodes
 * are stored as the player's; they count for the references once an admin accepts the player
 * (human-players.ts).
 */
import { eq } from 'drizzle-orm';
import { tickets } from '../drizzle/schema';
import type { Catalog } from '../gym/schema';
import { ApiError, invalidAt, jsonResponse } from './api-error';
import { knownVisitorPlayer, visitorPlayer } from './human-players';
import { type RateLimiter, takeTurn } from './rate-limit';
import { RunSubmission } from './submission-schema';
import { VisitorRunRequest, VisitorTicketRequest } from './visitor-play-schema';
import { canonicalHash, intake, type IntakeDeps, parseJson, type Principal, storedAnswer } from './submissions';
import { issueTicket, ticketJson } from './tickets';

export interface VisitorPlayDeps {
  intake: IntakeDeps;
  catalog: () => Catalog;
  /** Per client address, and one bucket for all visitors together (addresses can be forged). */
  limiter: RateLimiter;
  allVisitors: RateLimiter;
  ttlMs?: number;
}

/** One episode of human play is far below this; a record of a whole game's budget of GUI actions fits. */
const MAX_BODY = 1024 * 1024;

async function readJson(request: Request, what: string): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type))
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the ${what} as application/json (got "${type || 'no content type'}")`);
  const text = await request.text();
  if (text.length > MAX_BODY) throw new ApiError('PAYLOAD_TOO_LARGE', `A ${what} is at most ${MAX_BODY} bytes`, { maxBytes: MAX_BODY });
  return parseJson(text);
}

function clientAddress(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',')[0].trim() || request.headers.get('x-real-ip') || 'unknown';
}

/** A visitor's turn: from their address, and among all visitors together. */
function visitorTurn(deps: VisitorPlayDeps, request: Request): void {
  takeTurn(deps.limiter, `visitor:${clientAddress(request)}`, 'plays from this address');
  takeTurn(deps.allVisitors, 'visitors', 'plays from visitors just now');
}

export function createVisitorPlayHandlers(deps: VisitorPlayDeps) {
  const { db } = deps.intake;

  async function ticket(request: Request): Promise<Response> {
    try {
      const parsed = VisitorTicketRequest.safeParse(await readJson(request, 'ticket request'));
      if (!parsed.success) throw invalidAt('ticket request', parsed.error.issues[0]);
      const req = parsed.data;
      visitorTurn(deps, request);
      const catalog = deps.catalog();
      // Before a name is registered: a refused ticket must not leave a name whose key nobody got.
      if (!catalog.games.some((g) => g.manifest.id === req.game))
        throw new ApiError('UNKNOWN_GAME', `The server has no game "${req.game}"`, { game: req.game });
      const { player, newKey } = await visitorPlayer(db, req.player, req.playerKey);
      const row = await issueTicket(db, catalog, { tokenId: null, purpose: 'human', game: req.game, ttlMs: deps.ttlMs });
      return jsonResponse(201, {
        ticket: ticketJson(row),
        player: { name: player.name, status: player.status },
        // Shown once: the browser keeps it, and later tickets under this name need it.
        ...(newKey ? { playerKey: newKey } : {}),
      });
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error('POST /api/play/tickets failed:', e);
      return new ApiError('INTERNAL', 'The server failed to issue a ticket').toResponse();
    }
  }

  async function run(request: Request): Promise<Response> {
    try {
      const parsed = VisitorRunRequest.safeParse(await readJson(request, 'run'));
      if (!parsed.success) throw invalidAt('run', parsed.error.issues[0]);
      const req = parsed.data;
      const player = await knownVisitorPlayer(db, req.player, req.playerKey);
      if (!player) throw new ApiError('PLAYER_NOT_FOUND', `No player "${req.player}": ask for a ticket first (POST /api/play/tickets)`, { player: req.player });
      const [t] = await db.select().from(tickets).where(eq(tickets.id, req.ticket));
      if (!t || t.tokenId !== null || t.purpose !== 'human')
        throw new ApiError('TICKET_NOT_FOUND', `No visitor ticket "${req.ticket}" (ask for one with POST /api/play/tickets)`, { ticket: req.ticket });
      // One run per ticket, under the ticket's id: a retry of the same episode is answered from what is stored.
      const sub = RunSubmission.parse({
        id: `play-${t.id}`,
        agent: player.name,
        kind: 'human',
        settings: { observation: ['screenshot'], harness: 'play-mode' },
        ticket: t.id,
        episodes: [req.episode],
      });
      const principal: Principal = { tokenId: null, admin: false, visitor: true };
      const bodyHash = canonicalHash(sub);
      const earlier = await storedAnswer(deps.intake, principal, sub, bodyHash).catch((e: unknown) => {
        if (e instanceof ApiError && e.code === 'IDEMPOTENCY_CONFLICT')
          throw new ApiError('TICKET_USED', `Ticket ${t.id} was already used for another episode; ask for a new ticket`, { ticket: t.id });
        throw e;
      });
      const answer = earlier ?? (await intake(deps.intake, principal, sub, bodyHash));
      return jsonResponse(answer.status, answer.body, answer.headers);
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error('POST /api/play/runs failed:', e);
      return new ApiError('INTERNAL', 'The server failed to take the run; nothing was stored. Retry.').toResponse();
    }
  }

  return { ticket, run };
}
