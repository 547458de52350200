/**
 * `POST /api/tickets` and `GET /api/tickets/<id>` as functions of a Web Request (like
 * submissions.ts): a token asks for seeds to play, and may read its own tickets back.
 */
import type { Catalog } from '../gym/schema';
import { ApiError, invalidAt, jsonResponse } from './api-error';
import type { Db } from './db';
import { type RateLimiter, takeTurn } from './rate-limit';
import { parseJson, requireToken } from './submissions';
import { ownAgent } from './ingest';
import { endedPositions } from './live-episodes';
import type { LiveRoutes } from './live-routes';
import { issueTicket, ownTicket, ticketJson, TicketRequest } from './tickets';

export interface TicketDeps {
  db: Db;
  catalog: () => Catalog;
  limiter: RateLimiter;
  /** How long a ticket stays valid (default: ARCADE_TICKET_TTL_HOURS, else 24 h). */
  ttlMs?: number;
  /** Where live tickets are played; without it a live ticket is refused. */
  live?: LiveRoutes | null;
}

const MAX_BODY = 4096;

export function createTicketHandlers(deps: TicketDeps) {
  async function issue(request: Request): Promise<Response> {
    try {
      const token = await requireToken(deps.db, request);
      const text = await request.text();
      if (text.length > MAX_BODY) throw new ApiError('PAYLOAD_TOO_LARGE', `A ticket request is at most ${MAX_BODY} bytes`, { maxBytes: MAX_BODY });
      const parsed = TicketRequest.safeParse(parseJson(text || '{}'));
      if (!parsed.success) throw invalidAt('ticket request', parsed.error.issues[0]);
      const req = parsed.data;
      if (req.purpose === 'human' && !token.admin)
        throw new ApiError('FORBIDDEN', 'Tickets for human reference play need an admin token (human play changes the references)');
      takeTurn(deps.limiter, `ticket:${token.id}`, 'tickets for this token');
      const { mode, agent, observation, stepDeadlineMs, pixels, ...ask } = req;
      // A live ticket's run is submitted under its agent's name at the end: refuse a name this token may not use now, not after the play.
      if (agent !== undefined) await ownAgent(deps.db, agent, token.id);
      if (mode === 'live' && !deps.live) throw new ApiError('UNAVAILABLE', 'This server plays no live tickets: ask for "mode": "seeds"');
      const live =
        mode === 'live'
          ? { agent: agent!, observation: observation ?? ['state', 'vector'], ...(stepDeadlineMs ? { stepDeadlineMs } : {}), ...(pixels ? { pixels } : {}) }
          : undefined;
      const issued = await issueTicket(deps.db, deps.catalog(), { tokenId: token.id, ...ask, mode, live, ttlMs: deps.ttlMs });
      // A worker takes the live ticket's job: the answer names its endpoint if one did within a few seconds.
      const ticket = mode === 'live' ? await deps.live!.dispatch(issued) : issued;
      return jsonResponse(201, { ticket: ticketJson(ticket) }, { location: `/api/tickets/${ticket.id}` });
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error('POST /api/tickets failed:', e);
      return new ApiError('INTERNAL', 'The server failed to issue a ticket').toResponse();
    }
  }

  async function read(request: Request, id: string): Promise<Response> {
    try {
      const token = await requireToken(deps.db, request);
      const ticket = await ownTicket(deps.db, id, token.id);
      return jsonResponse(200, { ticket: ticketJson(ticket, ticket.mode === 'live' ? await endedPositions(deps.db, id) : undefined) });
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error('GET /api/tickets failed:', e);
      return new ApiError('INTERNAL', 'The server failed to read the ticket').toResponse();
    }
  }

  return { issue, read };
}
