/**
 * Live tickets: the server plays a ticket's episodes in gym sessions of its own, on seeds the
 * player never sees, and the player steps them over HTTP (`POST /api/live/<ticket>/reset`, `/step`,
 * `/close`), with the gym API's bodies; `/claims` says what the agent is (its harness, how it was
 * trained), stored as claimed with the run. There is no seed to give, no second reset of an episode and
 * no rewind; a step that does not come within the ticket's deadline ends the episode, truncated.
 * Each episode is stored when it ends (live-episodes.ts), however it ends, so a client that goes
 * away loses nothing it played. When the last episode ends (or the player closes the ticket) the
 * ticket is closed, its seeds may be shown, and its run enters through `intake()` like any other:
 * the verification queue replays every episode before anything ranks.
 */
import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { tickets } from '../drizzle/schema';
import { ArcadeGymError } from '../gym/errors';
import { type EpisodeOutcome, type PoolOptionsInput, ServiceError } from '../gym/pool';
import { encode, resetBody, StepBody, stepBody, type Extras } from '../gym/server';
import { type Session, SessionManager } from '../gym/sessions';
import type { ObservationKind } from '../gym/schema';
import { ApiError, invalidAt, jsonResponse } from './api-error';
import type { Db } from './db';
import { endedPositions, liveRecords, storeLiveEpisode } from './live-episodes';
import { LiveClaims } from './submission-schema';
import { intake, parseJson, requireToken, type IntakeDeps } from './submissions';
import { ownTicket, ticketEpisodes, ticketJson, type TicketRow } from './tickets';

/** A live episode's default deadline between steps (a ticket may set its own, `stepDeadlineMs`). */
export const DEFAULT_STEP_DEADLINE_MS = 5 * 60_000;

export interface LivePlayOptions {
  intake: IntakeDeps;
  /** The browsers live sessions run in (default: the gym pool's defaults). */
  pool?: PoolOptionsInput;
  /** Live sessions open at once, over every ticket. */
  maxSessions?: number;
}

interface Playing {
  ticketId: string;
  position: number;
  sessionId: string;
}

/** Infos carry the verifier state (score, level, lives) but never the episode record: it holds the seed. */
const LIVE_EXTRAS: Extras = new Set(['state']);
const MAX_BODY = 64 * 1024;
/** Claims carry a training config (at most 64 KiB) and a learning curve (at most 10,000 points). */
const MAX_CLAIMS_BODY = 4 * 1024 * 1024;

function wantsBinary(request: Request): boolean {
  return (request.headers.get('accept') ?? '').includes('application/octet-stream');
}

function answer(request: Request, status: number, build: Parameters<typeof encode>[1]): Response {
  const { contentType, body } = encode(wantsBinary(request), build);
  return new Response(new Uint8Array(body), { status, headers: { 'content-type': contentType } });
}

/** Errors of the env and the sessions, in the leaderboard API's codes. */
function apiErrorOf(e: unknown): ApiError | null {
  if (e instanceof ApiError) return e;
  if (e instanceof ArcadeGymError && (e.code === 'INVALID_ACTION' || e.code === 'ACTION_OUT_OF_RANGE'))
    return new ApiError('INVALID_SUBMISSION', e.message, { code: e.code });
  if (e instanceof ServiceError) {
    if (e.code === 'BUSY' || e.code === 'BROWSER_UNAVAILABLE' || e.code === 'SHUTTING_DOWN' || e.code === 'RESET_FAILED')
      return new ApiError('BUSY', e.message, undefined, e.retryAfterMs ? { 'retry-after': String(Math.ceil(e.retryAfterMs / 1000)) } : undefined);
    if (e.code === 'SESSION_BUSY') return new ApiError('EPISODE_IN_PROGRESS', e.message);
  }
  return null;
}

export class LivePlay {
  readonly sessions: SessionManager;
  private readonly db: Db;
  /** The episode each live ticket is playing now. */
  private readonly playing = new Map<string, Playing>();
  private readonly bySession = new Map<string, Playing>();
  /** Stores of ended episodes not yet written, by ticket: a step's answer waits for its own. */
  private readonly stores = new Map<string, Promise<void>>();
  /** Open live tickets by id, with the Authorization header that proved their token. */
  /** A session kept, between two episodes of one game, for the ticket's next reset. */
  private readonly parked = new Map<string, string>();
  private readonly open = new Map<string, { ticket: TicketRow; tokenId: number; authorization: string }>();

  constructor(private readonly options: LivePlayOptions) {
    this.db = options.intake.db;
    this.sessions = new SessionManager({
      pool: options.pool,
      maxSessions: options.maxSessions,
      // The ticket's deadline is the session's idle timeout; a live ticket may ask for up to an hour.
      maxIdleTimeoutMs: 3_600_000,
      gcIntervalMs: 1_000,
      onEpisode: (sessionId, outcome) => this.episodeEnded(sessionId, outcome),
    });
  }

  private episodeEnded(sessionId: string, outcome: EpisodeOutcome): void {
    const p = this.bySession.get(sessionId);
    if (!p) return;
    const previous = this.stores.get(p.ticketId) ?? Promise.resolve();
    const store = previous
      .then(() => storeLiveEpisode(this.db, p.ticketId, p.position, outcome.record, outcome.cause))
      .catch((e: unknown) => console.error(`arcade-gym: storing live episode ${p.position} of ${p.ticketId} failed:`, e));
    this.stores.set(p.ticketId, store);
    // The episode is over however it ended (a last step, the deadline, a shutdown): the ticket's next reset may start the next one.
    this.forget(p);
  }

  private forget(p: Playing): void {
    if (this.playing.get(p.ticketId) === p) this.playing.delete(p.ticketId);
    this.bySession.delete(p.sessionId);
  }

  private async stored(ticketId: string): Promise<void> {
    await this.stores.get(ticketId);
  }

  /**
   * The caller's open live ticket, or the error saying why not. A ticket in play and the
   * Authorization that opened it are remembered until it closes, so that a step costs no
   * database round trip (a token revoked meanwhile plays on to the ticket's end).
   */
  private async liveTicket(request: Request, ticketId: string): Promise<{ ticket: TicketRow; tokenId: number }> {
    const known = this.open.get(ticketId);
    if (known && known.authorization === request.headers.get('authorization') && known.ticket.expiresAt.getTime() > Date.now()) return known;
    const token = await requireToken(this.db, request);
    const ticket = await ownTicket(this.db, ticketId, token.id);
    if (ticket.mode !== 'live')
      throw new ApiError('TICKET_MISMATCH', `Ticket ${ticketId} gives its seeds ("mode": "seeds"): play them and submit the records to /api/runs`, {
        ticket: ticketId,
      });
    if (ticket.closedAt) throw new ApiError('TICKET_CLOSED', `Live ticket ${ticketId} is closed: ask for a new one`, { ticket: ticketId });
    if (ticket.expiresAt.getTime() <= Date.now()) {
      await this.finish(ticket, token.id);
      throw new ApiError('TICKET_CLOSED', `Live ticket ${ticketId} expired at ${ticket.expiresAt.toISOString()}; what was played is submitted`, {
        ticket: ticketId,
      });
    }
    const authorization = request.headers.get('authorization') ?? '';
    this.open.set(ticketId, { ticket, tokenId: token.id, authorization });
    return { ticket, tokenId: token.id };
  }

  private async readBody(request: Request, max = MAX_BODY): Promise<unknown> {
    const text = await request.text();
    if (text.length > max) throw new ApiError('PAYLOAD_TOO_LARGE', `This live call's body is at most ${max} bytes`, { maxBytes: max });
    return parseJson(text || '{}');
  }

  /** Starts the ticket's next episode. The body must be empty (`{}`): the seed is the server's. */
  async reset(request: Request, ticketId: string): Promise<Response> {
    return this.handle('reset', async () => {
      const { ticket } = await this.liveTicket(request, ticketId);
      const body = await this.readBody(request);
      if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length > 0)
        throw new ApiError(
          'LIVE_REFUSED',
          `A live reset takes no arguments (got ${JSON.stringify(body).slice(0, 80)}): the server chooses the seed and starts the ticket's next episode`,
        );
      if (this.playing.has(ticketId))
        throw new ApiError(
          'EPISODE_IN_PROGRESS',
          `Episode ${this.playing.get(ticketId)!.position} of live ticket ${ticketId} is still being played: an episode is reset once, and cannot be restarted or rewound; step it to its end or close the ticket`,
        );
      await this.stored(ticketId);
      const ended = await endedPositions(this.db, ticketId);
      const next = ticketEpisodes(ticket).find((e) => !ended.has(e.position));
      if (!next) throw new ApiError('TICKET_CLOSED', `Every episode of live ticket ${ticketId} has been played`, { ticket: ticketId });
      const live = ticket.live!;
      const session =
        (await this.unpark(ticketId, next.game.gameId)) ??
        (await this.sessions.create({
          env: {
            game: next.game.gameId,
            seed: next.seed,
            observation: live.observation as ObservationKind[],
            ...(live.pixels ? { pixels: live.pixels } : {}),
            maxSteps: next.game.stepBudget,
            msPerStep: next.game.msPerStep,
          },
          idleTimeoutMs: live.stepDeadlineMs ?? DEFAULT_STEP_DEADLINE_MS,
        }));
      const p: Playing = { ticketId, position: next.position, sessionId: session.id };
      this.playing.set(ticketId, p);
      this.bySession.set(session.id, p);
      try {
        const r = await session.reset({ seed: next.seed });
        return answer(request, 200, (sink) => {
          const { observation, info } = resetBody(r, sink, LIVE_EXTRAS);
          const { seed: _hidden, ...shown } = info;
          return { observation, info: { ...shown, episode: { position: next.position, game: next.game.gameId, of: ticketEpisodes(ticket).length } } };
        });
      } catch (e) {
        this.forget(p);
        await this.sessions.close(session.id).catch(() => null);
        throw e;
      }
    });
  }

  /** Steps the ticket's episode; the step that ends it stores it, and the last one closes the ticket and submits its run. */
  async step(request: Request, ticketId: string): Promise<Response> {
    return this.handle('step', async () => {
      const { ticket, tokenId } = await this.liveTicket(request, ticketId);
      const parsed = StepBody.safeParse(await this.readBody(request));
      if (!parsed.success)
        throw new ApiError('INVALID_SUBMISSION', `Invalid step: ${parsed.error.issues[0].message}`, { path: parsed.error.issues[0].path.map(String) });
      const p = this.playing.get(ticketId);
      if (!p) throw new ApiError('RESET_NEEDED', `Live ticket ${ticketId} has no episode in play: reset to start its next one`);
      const session = this.sessions.get(p.sessionId);
      const r = await session.step(parsed.data.action);
      const over = r.terminated || r.truncated;
      let closed: Awaited<ReturnType<LivePlay['finish']>> | null = null;
      if (over) {
        this.forget(p);
        // The next episode of the same game resets in this session's page (a fresh episode, the gym's
        // page reuse: byte for byte what a new page would play), which costs far less than a new page.
        const following = ticketEpisodes(ticket)[p.position + 1];
        if (following?.game.gameId === session.manifest.id) this.parked.set(ticketId, p.sessionId);
        else await this.sessions.close(p.sessionId).catch(() => null);
        await this.stored(ticketId);
        const ended = await endedPositions(this.db, ticketId);
        if (ended.size === ticketEpisodes(ticket).length) closed = await this.finish(ticket, tokenId);
      }
      return answer(request, 200, (sink) => {
        const body = stepBody(r, sink, LIVE_EXTRAS);
        const { outcome, ...info } = body.info as typeof body.info & { outcome?: unknown };
        return { ...body, info: { ...info, ...(outcome ? { outcome } : {}), ...(closed ? { ticket: closed } : {}) } };
      });
    });
  }

  /**
   * What the player says about its agent: harness, model, code version, and for a trained policy
   * its training settings and learning curve. Taken until the last episode ends (the run is
   * submitted then), each call replacing the last; stored and shown as claimed.
   */
  async claims(request: Request, ticketId: string): Promise<Response> {
    return this.handle('take the claims of', async () => {
      const { ticket } = await this.liveTicket(request, ticketId);
      const parsed = LiveClaims.safeParse(await this.readBody(request, MAX_CLAIMS_BODY));
      if (!parsed.success) throw invalidAt('claims', parsed.error.issues[0]);
      const live = { ...ticket.live!, claims: parsed.data };
      const [row] = await this.db
        .update(tickets)
        .set({ live })
        .where(and(eq(tickets.id, ticketId), isNull(tickets.closedAt)))
        .returning();
      if (!row) throw new ApiError('TICKET_CLOSED', `Live ticket ${ticketId} is closed: its run was submitted without these claims`, { ticket: ticketId });
      const known = this.open.get(ticketId);
      if (known) known.ticket = row;
      return jsonResponse(200, { ticket: ticketJson(row, await endedPositions(this.db, ticketId)) });
    });
  }

  /** Ends the ticket: an episode in play is stored truncated, unplayed ones stay unplayed, the run is submitted. */
  async close(request: Request, ticketId: string): Promise<Response> {
    return this.handle('close', async () => {
      const { ticket, tokenId } = await this.liveTicket(request, ticketId);
      const p = this.playing.get(ticketId);
      if (p) await this.sessions.close(p.sessionId, { code: 'TICKET_CLOSED', message: 'the player closed the live ticket' }).catch(() => null);
      return jsonResponse(200, { ticket: await this.finish(ticket, tokenId) });
    });
  }

  /** The session the ticket's last episode left for its next one of `game`, if it is still open. */
  private async unpark(ticketId: string, game: string): Promise<Session | null> {
    const id = this.parked.get(ticketId);
    if (id === undefined) return null;
    this.parked.delete(ticketId);
    try {
      const session = this.sessions.get(id);
      if (session.manifest.id === game) return session;
      await this.sessions.close(id);
    } catch {
      // Reclaimed while parked (its deadline passed): a new session it is.
    }
    return null;
  }

  /**
   * Closes the ticket once and submits what was played, through intake() like any run: the
   * ticket's seeds may be shown from now on, and the verification queue replays every episode.
   */
  private async finish(ticket: TicketRow, tokenId: number) {
    this.open.delete(ticket.id);
    const parked = this.parked.get(ticket.id);
    this.parked.delete(ticket.id);
    if (parked) await this.sessions.close(parked).catch(() => null);
    await this.stored(ticket.id);
    const [row] = await this.db
      .update(tickets)
      .set({ closedAt: new Date() })
      .where(and(eq(tickets.id, ticket.id), isNull(tickets.closedAt)))
      .returning();
    const closedRow = row ?? (await ownTicket(this.db, ticket.id, tokenId));
    // An episode the player abandoned is kept with its cause, but it is not a played episode: its seed counts as unplayed.
    const episodes = await liveRecords(this.db, ticket.id, { complete: true });
    const shown = ticketJson(closedRow, await endedPositions(this.db, ticket.id));
    if (!row || episodes.length === 0) return { ...shown, submission: null };
    // The claims as the closed row has them: a claims call that raced the last step is in or out, never half.
    const { harness, model, codeVersion, training, learningCurve } = closedRow.live?.claims ?? {};
    const sub = {
      id: `live_${ticket.id.slice(4)}`,
      agent: ticket.live!.agent,
      kind: training ? ('training' as const) : ('evaluation' as const),
      settings: {
        observation: ticket.live!.observation as ObservationKind[],
        harness: harness ?? 'live',
        ...(model ? { model } : {}),
        ...(codeVersion ? { codeVersion } : {}),
        ...(training ? { training } : {}),
      },
      ...(learningCurve ? { learningCurve } : {}),
      ticket: ticket.id,
      episodes,
    };
    const hash = createHash('sha256').update(JSON.stringify(sub)).digest('hex');
    const submitted = await intake(this.options.intake, { tokenId, admin: false }, sub, hash);
    return { ...shown, submission: submitted.body };
  }

  private async handle(what: string, fn: () => Promise<Response>): Promise<Response> {
    try {
      return await fn();
    } catch (e) {
      const api = apiErrorOf(e);
      if (api) return api.toResponse();
      console.error(`live ${what} failed:`, e);
      return new ApiError('INTERNAL', `The server failed to ${what} the live episode`).toResponse();
    }
  }

  /** Records every episode still in play (SHUTDOWN) and closes the browsers. */
  async shutdown(): Promise<void> {
    await this.sessions.shutdown();
    await Promise.all([...this.stores.values()]);
  }
}
