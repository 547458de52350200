/**
 * The CLI's side of evaluation tickets (leaderboard/README.md, "The protocol"): where the server is
 * and which token to use, drawing a ticket or reading one back, and checking that the games built
 * here are the builds the ticket was drawn for. `eval --server` and `train --submit` both play
 * tickets through this module.
 */
import { getGame } from '../gym/catalog';
import type { CatalogEntry } from '../gym/schema';
import { ApiCallError, callApi, defaultServerUrl, type ServerAuth } from '../leaderboard/client';
import { TicketJson } from '../leaderboard/ticket-schema';
import { stringOption, UsageError } from './command';

/**
 * `--server` (default $ARCADE_SERVER_URL or the local site) and `--token` (default $ARCADE_TOKEN);
 * `why` says what needs the token when none is given.
 */
export function serverAuth(values: Record<string, unknown>, why: string): ServerAuth {
  const token = stringOption(values, 'token') ?? process.env.ARCADE_TOKEN;
  if (!token) throw new UsageError(`${why} needs an API token: pass --token or set ARCADE_TOKEN (create one with \`npx arcade-gym token create\`)`);
  return { server: (stringOption(values, 'server') ?? defaultServerUrl()).replace(/\/+$/, ''), token };
}

const headers = (auth: ServerAuth) => ({ 'content-type': 'application/json', authorization: `Bearer ${auth.token}` });

function ticketError(e: unknown): never {
  if (e instanceof ApiCallError) throw new UsageError(`could not get a ticket (${e.status ? `${e.status} ` : ''}${e.code}): ${e.message}`);
  throw e;
}

/** `POST /api/tickets`: fresh seeds for one game or a suite, drawn by the server. */
export async function drawTicket(auth: ServerAuth, ask: { gameId?: string; suite?: string; seedsPerGame?: number }): Promise<TicketJson> {
  if (!ask.gameId === !ask.suite) throw new UsageError('give exactly one of --game <id> or --suite <name> to ask the server for a ticket');
  const request = { ...(ask.gameId ? { game: ask.gameId } : { suite: ask.suite }), ...(ask.seedsPerGame ? { seedsPerGame: ask.seedsPerGame } : {}) };
  try {
    const { body } = await callApi<{ ticket: unknown }>(`${auth.server}/api/tickets`, {
      method: 'POST',
      headers: headers(auth),
      body: JSON.stringify(request),
    });
    const ticket = TicketJson.parse(body.ticket);
    const seeds = ticket.games.reduce((a, g) => a + g.seeds.length, 0);
    console.error(
      `Ticket ${ticket.id} from ${auth.server}: ${seeds} seed${seeds === 1 ? '' : 's'} on ${ticket.games.length} game${ticket.games.length === 1 ? '' : 's'}, to submit before ${ticket.expiresAt}`,
    );
    return ticket;
  } catch (e) {
    return ticketError(e);
  }
}

/** `GET /api/tickets/<id>`: one of this token's tickets, refused if a submission already used it or it has expired. */
export async function readTicket(auth: ServerAuth, id: string): Promise<TicketJson> {
  try {
    const { body } = await callApi<{ ticket: unknown }>(`${auth.server}/api/tickets/${encodeURIComponent(id)}`, { method: 'GET', headers: headers(auth) });
    const ticket = TicketJson.parse(body.ticket);
    if (ticket.used) throw new UsageError(`ticket ${id} was already used by a submission; ask for a new one`);
    // A run on an expired ticket is stored unranked whatever it scores: playing it would waste the whole evaluation.
    if (Date.parse(ticket.expiresAt) <= Date.now())
      throw new UsageError(`ticket ${id} expired at ${ticket.expiresAt}: a run on it would not be ranked; ask for a new one (eval --server without --ticket)`);
    return ticket;
  } catch (e) {
    return ticketError(e);
  }
}

/** The ticket's games as built here: they must be the builds the server drew the ticket for. */
export function ticketGames(ticket: TicketJson): CatalogEntry[] {
  return ticket.games.map((t) => {
    const game = getGame(t.gameId);
    const m = game.manifest;
    if (m.version !== t.gameVersion || game.verifierChecksum !== t.verifierChecksum) {
      throw new UsageError(
        `${t.gameId} here is ${m.version} (verifier ${game.verifierChecksum.slice(0, 12)}…), the ticket's is ${t.gameVersion} (${t.verifierChecksum.slice(0, 12)}…): update and rebuild the games (npm run build:games)`,
      );
    }
    if (m.stepBudget !== t.stepBudget || m.msPerStep !== t.msPerStep) {
      throw new UsageError(
        `${t.gameId}: the ticket's official settings (${t.stepBudget} steps × ${t.msPerStep} ms) differ from this build's (${m.stepBudget} × ${m.msPerStep})`,
      );
    }
    return game;
  });
}

/** The seeds a ticket gives one of its games, in the order they are to be played. */
export const ticketSeedsOf = (ticket: TicketJson) => (game: CatalogEntry) => ticket.games.find((g) => g.gameId === game.manifest.id)?.seeds ?? [];
