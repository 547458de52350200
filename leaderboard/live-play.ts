/**
 * Live tickets: the server plays a ticket's episodes in gym sessions of its own, on seeds the
 * player never sees, and the player steps them over HTTP (`reset`, `step`, `close`, with the gym
 * API's bodies; `claims` says what the agent is, stored as claimed with the run). There is no seed
 * to give, no second reset of an episode and no rewind; a step that does not come within the
 * ticket's deadline ends the episode, truncated.
 *
 * A LivePlay is one worker's host of live tickets: a worker on the job queue takes a ticket's
 * `live` job (jobs/live-jobs.ts), `host()`s it (its listener's address is written into the ticket, so
 * the player and the site's route find it) and holds it until it closes. Calls for a ticket hosted
 * elsewhere are refused. Each episode is stored when it ends (live-episodes.ts), however its player
 * ends it, so a client that goes away loses nothing it played. A worker that stops hands the ticket back
 * to the queue, and one that dies stops renewing its lease: either way the next worker goes on with the
 * ticket, and the episode cut off in play, which its player had seen part of, is played again on a
 * fresh seed (`live.redrawn`). When the last episode ends (or the player closes the ticket,
 * or it expires) the ticket is closed, its seeds may be shown, and its run enters through `intake()`
 * like any other: the verification queue replays every episode before anything ranks.
 */
import { createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { tickets } from '../drizzle/schema';
import { ArcadeGymError } from '../gym/errors';
import { type EpisodeOutcome, type PoolOptionsInput, ServiceError } from '../gym/pool';
import { encode, resetBody, StepBody, stepBody, type Extras } from '../gym/server';
import { type Session, SessionManager } from '../gym/sessions';
import type { ObservationKind } from '../gym/schema';
import { ApiError, invalidAt } from './api-error';
import type { Db } from './db';
import { errorReply, jsonReply, type LiveCall, type LiveCallName, type LiveReply } from './live-call';
import { endedPositions, liveRecords, storeLiveEpisode } from './live-episodes';
import { LiveClaims } from './submission-schema';
import { intake, parseJson, requireBearer, type IntakeDeps } from './submissions';
import { ownTicket, redrawSeeds, ticketEpisodes, ticketJson, type TicketRow } from './tickets';

type ResetResult = Awaited<ReturnType<Session['reset']>>;
type TicketEpisode = ReturnType<typeof ticketEpisodes>[number];

/** A live episode's default deadline between steps (a ticket may set its own, `stepDeadlineMs`). */
export const DEFAULT_STEP_DEADLINE_MS = 5 * 60_000;

export interface LivePlayOptions {
  intake: IntakeDeps;
  /** The browsers live sessions run in (default: the gym pool's defaults). */
  pool?: PoolOptionsInput;
  /** Live sessions open at once, over every ticket. */
  maxSessions?: number;
}

/** How hosting a ticket ended: it closed (played, closed by its player, expired), or it was handed back. */
export type HostingEnd = 'closed' | 'released';

interface Playing {
  ticketId: string;
  position: number;
  sessionId: string;
}

interface Hosting {
  done: (how: HostingEnd) => void;
  expiry: NodeJS.Timeout;
  /** The ticket's episodes that ended: while a host plays a ticket, only it adds to them. */
  ended: Set<number>;
}

/**
 * The ticket's next episode, reset ahead of the player's call (a page's load and reset take far longer
 * than a step): the seed is the server's, so nothing of it is shown before the player's reset, and the
 * reset is the one a later call would have made, byte for byte (virtual time waits for the first step).
 */
interface Prepared {
  position: number;
  /** Taken by the player's reset: its session is the episode's from then on. */
  claimed: boolean;
  session: Promise<Session>;
  reset: Promise<ResetResult>;
}

/** Infos carry the verifier state (score, level, lives) but never the episode record: it holds the seed. */
const LIVE_EXTRAS: Extras = new Set(['state']);
const MAX_BODY = 64 * 1024;
/** Claims carry a training config (at most 64 KiB) and a learning curve (at most 10,000 points). */
export const MAX_CLAIMS_BODY = 4 * 1024 * 1024;
/** Sessions kept warm for later tickets, over every setting. */
const MAX_WARM_SESSIONS = 4;
/** setTimeout's longest delay; a later expiry is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function answer(call: LiveCall, status: number, build: Parameters<typeof encode>[1]): LiveReply {
  const { contentType, body } = encode(call.binary, build);
  return { status, headers: { 'content-type': contentType }, body };
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

/**
 * The caller's open live ticket, or the error saying why not: the token, the ticket's owner, its
 * mode, closed or expired. Both the worker and the site's route ask it before anything else.
 */
export async function openLiveTicket(
  db: Db,
  authorization: string | null,
  ticketId: string,
): Promise<{ ticket: TicketRow; tokenId: number; expired: boolean }> {
  const token = await requireBearer(db, authorization);
  const ticket = await ownTicket(db, ticketId, token.id);
  if (ticket.mode !== 'live')
    throw new ApiError('TICKET_MISMATCH', `Ticket ${ticketId} gives its seeds ("mode": "seeds"): play them and submit the records to /api/runs`, {
      ticket: ticketId,
    });
  if (ticket.closedAt) throw new ApiError('TICKET_CLOSED', `Live ticket ${ticketId} is closed: ask for a new one`, { ticket: ticketId });
  return { ticket, tokenId: token.id, expired: ticket.expiresAt.getTime() <= Date.now() };
}

export class LivePlay {
  readonly sessions: SessionManager;
  private readonly db: Db;
  /** Where this host's listener answers, written into every ticket it hosts. */
  private address: { url: string; worker: string } | null = null;
  /** The tickets this host plays, until they close or are handed back. */
  private readonly hosting = new Map<string, Hosting>();
  /** The episode each live ticket is playing now. */
  private readonly playing = new Map<string, Playing>();
  private readonly bySession = new Map<string, Playing>();
  /** Stores of ended episodes not yet written, by ticket: a step's answer waits for its own. */
  private readonly stores = new Map<string, Promise<void>>();
  /** The ticket's next episode, reset in the background for its player's next reset. */
  private readonly prepared = new Map<string, Prepared>();
  /** Sessions no ticket uses, by their settings (oldest first), and the settings of each session opened. */
  private readonly warm = new Map<string, string>();
  private readonly keys = new WeakMap<Session, string>();
  /** Open live tickets by id, with the Authorization header that proved their token. */
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

  /** Where players reach this host (its listener's base URL), and the worker it belongs to. */
  setAddress(url: string, worker: string): void {
    this.address = { url, worker };
  }

  /**
   * Plays the ticket here until it closes ('closed': its last episode ended, its player closed it, it
   * expired; also at once for a ticket that is closed or gone) or it is handed back ('released': the
   * signal aborted, the worker is stopping or lost its lease). The ticket names this host from now on.
   */
  async host(ticketId: string, signal?: AbortSignal): Promise<HostingEnd> {
    if (!this.address) throw new Error('LivePlay.host: the listener address is not set');
    if (this.hosting.has(ticketId)) throw new Error(`live ticket ${ticketId} is hosted here already`);
    let [row] = await this.db.select().from(tickets).where(eq(tickets.id, ticketId));
    if (row?.mode !== 'live' || !row.live || row.closedAt) return 'closed';
    // Episodes reset on a worker that then stopped or died, never ended: their players saw part of them. Fresh seeds for them.
    const ended = await endedPositions(this.db, ticketId);
    const cut = (row.live.started ?? []).filter((p) => !ended.has(p));
    if (cut.length) {
      row = await redrawSeeds(this.db, ticketId, cut, 'its worker stopped during the episode');
      console.warn(`arcade-gym: live ticket ${ticketId}: episode(s) ${cut.join(', ')} cut off by a worker that stopped, played again on fresh seeds`);
    }
    if (signal?.aborted) return 'released';
    await this.db
      .update(tickets)
      .set({ live: sql`jsonb_set(${tickets.live}, '{host}', ${JSON.stringify(this.address)}::jsonb)` })
      .where(and(eq(tickets.id, ticketId), isNull(tickets.closedAt)));
    const ended$ = new Promise<HostingEnd>((resolve) => {
      this.hosting.set(ticketId, { done: resolve, expiry: this.expiryTimer(row), ended });
    });
    signal?.addEventListener('abort', () => void this.release(ticketId), { once: true });
    // Everything may have been played already (a worker that stopped as it closed the ticket).
    if (ended.size === ticketEpisodes(row).length) await this.finish(row, row.tokenId!);
    else this.prepare(row, null);
    return ended$;
  }

  private expiryTimer(row: TicketRow): NodeJS.Timeout {
    const ms = row.expiresAt.getTime() - Date.now();
    const timer = setTimeout(
      () => {
        if (!this.hosting.has(row.id)) return;
        if (ms > MAX_TIMER_MS) {
          this.hosting.get(row.id)!.expiry = this.expiryTimer(row);
          return;
        }
        void this.closeSession(row.id, { code: 'TICKET_EXPIRED', message: 'the live ticket expired' })
          .then(() => this.finish(row, row.tokenId!))
          .catch((e: unknown) => console.error(`arcade-gym: closing expired live ticket ${row.id} failed:`, e));
      },
      Math.max(0, Math.min(ms, MAX_TIMER_MS)),
    );
    timer.unref();
    return timer;
  }

  /**
   * Hands the ticket back: the ticket no longer names this host, and the next worker to take its job
   * goes on with it. The episode in play is not stored: it was cut off by the server, not by its
   * player, so the next worker plays it again on a fresh seed (as it does when a worker dies).
   */
  async release(ticketId: string): Promise<void> {
    const hosting = this.hosting.get(ticketId);
    if (!hosting) return;
    const p = this.playing.get(ticketId);
    if (p) this.forget(p);
    await this.closeSession(ticketId, { code: 'SHUTDOWN', message: 'the worker playing the live ticket stopped' });
    if (p) await this.sessions.close(p.sessionId).catch(() => null);
    await this.stored(ticketId);
    this.unhost(ticketId, 'released');
    await this.db
      .update(tickets)
      .set({ live: sql`${tickets.live} - 'host'` })
      .where(and(eq(tickets.id, ticketId), sql`${tickets.live}->'host'->>'worker' = ${this.address!.worker}`));
  }

  private unhost(ticketId: string, how: HostingEnd): void {
    const hosting = this.hosting.get(ticketId);
    this.open.delete(ticketId);
    if (!hosting) return;
    clearTimeout(hosting.expiry);
    this.hosting.delete(ticketId);
    hosting.done(how);
  }

  /** Closes the ticket's sessions (the one in play stores its episode with `cause`, truncated). */
  private async closeSession(ticketId: string, cause: { code: string; message: string }): Promise<void> {
    const p = this.playing.get(ticketId);
    if (p) await this.sessions.close(p.sessionId, cause).catch(() => null);
    await this.dropPrepared(ticketId);
  }

  private episodeEnded(sessionId: string, outcome: EpisodeOutcome): void {
    // An episode prepared but never reset by its player has no Playing, and is not stored.
    const p = this.bySession.get(sessionId);
    if (!p) return;
    this.hosting.get(p.ticketId)?.ended.add(p.position);
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
   * The caller's open live ticket hosted here, or the error saying why not. A ticket in play and the
   * Authorization that opened it are remembered until it closes, so that a step costs no
   * database round trip (a token revoked meanwhile plays on to the ticket's end).
   */
  private async liveTicket(call: LiveCall, ticketId: string): Promise<{ ticket: TicketRow; tokenId: number }> {
    const known = this.open.get(ticketId);
    if (known && known.authorization === call.authorization && known.ticket.expiresAt.getTime() > Date.now()) return known;
    const { ticket, tokenId, expired } = await openLiveTicket(this.db, call.authorization, ticketId);
    if (!this.hosting.has(ticketId))
      throw new ApiError(
        'UNAVAILABLE',
        `Live ticket ${ticketId} is not played by this worker (it moved to another, or none has taken it yet): play it through the site's /api/live/${ticketId}/…, or read GET /api/tickets/${ticketId} for its endpoint`,
        { ticket: ticketId },
        { 'retry-after': '2' },
      );
    if (expired) {
      await this.closeSession(ticketId, { code: 'TICKET_EXPIRED', message: 'the live ticket expired' });
      await this.finish(ticket, tokenId);
      throw new ApiError('TICKET_CLOSED', `Live ticket ${ticketId} expired at ${ticket.expiresAt.toISOString()}; what was played is submitted`, {
        ticket: ticketId,
      });
    }
    this.open.set(ticketId, { ticket, tokenId, authorization: call.authorization ?? '' });
    return { ticket, tokenId };
  }

  private readBody(call: LiveCall, max = MAX_BODY): unknown {
    if (call.body.length > max) throw new ApiError('PAYLOAD_TOO_LARGE', `This live call's body is at most ${max} bytes`, { maxBytes: max });
    return parseJson(call.body || '{}');
  }

  /** One call of the ticket's player, answered as the API answers it. */
  async call(name: LiveCallName, ticketId: string, call: LiveCall): Promise<LiveReply> {
    try {
      return await this[name](call, ticketId);
    } catch (e) {
      const api = apiErrorOf(e);
      if (api) return errorReply(api);
      console.error(`live ${name} failed:`, e);
      return errorReply(new ApiError('INTERNAL', `The server failed to ${name} the live episode`));
    }
  }

  /** Starts the ticket's next episode. The body must be empty (`{}`): the seed is the server's. */
  private async reset(call: LiveCall, ticketId: string): Promise<LiveReply> {
    const { ticket } = await this.liveTicket(call, ticketId);
    const body = this.readBody(call);
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
    const ended = this.hosting.get(ticketId)!.ended;
    const next = ticketEpisodes(ticket).find((e) => !ended.has(e.position));
    if (!next) throw new ApiError('TICKET_CLOSED', `Every episode of live ticket ${ticketId} has been played`, { ticket: ticketId });
    const prepared = this.prepared.get(ticketId);
    this.prepared.delete(ticketId);
    const claimed = prepared?.position === next.position ? prepared : null;
    if (claimed) claimed.claimed = true;
    else if (prepared) void this.closePrepared(prepared);
    // Written before the episode is shown: if this worker dies in it, the next one knows it was seen.
    const started = this.db
      .update(tickets)
      .set({
        live: sql`jsonb_set(${tickets.live}, '{started}', coalesce(${tickets.live}->'started', '[]'::jsonb) || ${JSON.stringify([next.position])}::jsonb)`,
      })
      .where(eq(tickets.id, ticketId));
    // Taken now, before anything is awaited: a second reset meanwhile is refused.
    const p: Playing = { ticketId, position: next.position, sessionId: '' };
    this.playing.set(ticketId, p);
    const play = (session: Session): Session => {
      p.sessionId = session.id;
      // From here on the episode's end, however it comes, is stored.
      this.bySession.set(session.id, p);
      session.touch();
      return session;
    };
    const begin = async (): Promise<ResetResult> => {
      const ready = claimed && (await this.readyPrepared(claimed));
      if (ready) {
        play(ready.session);
        return ready.result;
      }
      // Not prepared, or its preparation failed (its page reclaimed at its deadline, a browser lost): a session of its own.
      const session = play(await this.openSession(ticket, next));
      return session.reset({ seed: next.seed });
    };
    try {
      // Both settled before either failure is answered, so that no session is left behind half-claimed.
      const [mark, reset] = await Promise.allSettled([started, begin()]);
      if (mark.status === 'rejected') throw mark.reason;
      if (reset.status === 'rejected') throw reset.reason;
      const r = reset.value;
      return answer(call, 200, (sink) => {
        const { observation, info } = resetBody(r, sink, LIVE_EXTRAS);
        const { seed: _hidden, ...shown } = info;
        return { observation, info: { ...shown, episode: { position: next.position, game: next.game.gameId, of: ticketEpisodes(ticket).length } } };
      });
    } catch (e) {
      this.forget(p);
      if (p.sessionId) await this.sessions.close(p.sessionId).catch(() => null);
      throw e;
    }
  }

  /** A session for the episode: a warm one of the same settings if there is one, else a new one. */
  private async openSession(ticket: TicketRow, episode: TicketEpisode): Promise<Session> {
    const live = ticket.live!;
    const spec = {
      env: {
        game: episode.game.gameId,
        seed: episode.seed,
        observation: live.observation as ObservationKind[],
        ...(live.pixels ? { pixels: live.pixels } : {}),
        maxSteps: episode.game.stepBudget,
        msPerStep: episode.game.msPerStep,
      },
      idleTimeoutMs: live.stepDeadlineMs ?? DEFAULT_STEP_DEADLINE_MS,
    };
    // Everything the session's env and lease are made of but the seed, which every reset gives.
    const key = JSON.stringify([episode.game.gameVersion, { ...spec, env: { ...spec.env, seed: 0 } }]);
    const warm = this.warm.get(key);
    this.warm.delete(key);
    if (warm && this.sessions.has(warm)) return this.sessions.get(warm);
    const session = await this.sessions.create(spec);
    this.keys.set(session, key);
    return session;
  }

  /**
   * Keeps a session whose ticket is done with it, for the next ticket's episode of the same game and
   * settings: its page is loaded, so that reset costs what a reset in the same page does (the gym's
   * page reuse, a fresh episode byte for byte). A few are kept; the collector reclaims them at their deadline.
   */
  private retire(session: Session): void {
    const key = this.keys.get(session);
    if (!key || !this.sessions.has(session.id)) {
      void this.sessions.close(session.id).catch(() => null);
      return;
    }
    const older = this.warm.get(key);
    this.warm.delete(key);
    if (older !== undefined) void this.sessions.close(older).catch(() => null);
    this.warm.set(key, session.id);
    for (const [k, id] of this.warm) {
      if (this.warm.size <= MAX_WARM_SESSIONS) break;
      this.warm.delete(k);
      void this.sessions.close(id).catch(() => null);
    }
  }

  /**
   * Resets the ticket's next episode in the background: in `session` (the one that just ended, when
   * the next episode is of its game: the gym's page reuse, a fresh episode byte for byte) or a new one.
   */
  private prepare(ticket: TicketRow, session: Session | null): void {
    const hosting = this.hosting.get(ticket.id);
    const next = hosting && ticketEpisodes(ticket).find((e) => !hosting.ended.has(e.position));
    const reuse = session && next && session.manifest.id === next.game.gameId ? session : null;
    if (session && !reuse) this.retire(session);
    if (!next) return;
    const opened = reuse ? Promise.resolve(reuse) : this.openSession(ticket, next);
    const reset = opened.then((s) => {
      // Dropped before its page was had (the ticket closed or moved): nothing to reset.
      if (!prepared.claimed && this.prepared.get(ticket.id) !== prepared) throw new Error('the prepared episode was dropped');
      return s.reset({ seed: next.seed });
    });
    const prepared: Prepared = { position: next.position, claimed: false, session: opened, reset };
    opened.catch(() => undefined);
    reset.catch(() => undefined);
    this.prepared.set(ticket.id, prepared);
  }

  /** A prepared episode's session and reset, if both are there and the session is still open; else it is closed, and null. */
  private async readyPrepared(prepared: Prepared): Promise<{ session: Session; result: ResetResult } | null> {
    const session = await prepared.session.catch(() => null);
    const result = await prepared.reset.catch(() => null);
    if (session && result && this.sessions.has(session.id)) return { session, result };
    await this.closePrepared(prepared);
    return null;
  }

  private async closePrepared(prepared: Prepared): Promise<void> {
    const session = await prepared.session.catch(() => null);
    await prepared.reset.catch(() => null);
    if (session && !this.bySession.has(session.id)) await this.sessions.close(session.id).catch(() => null);
  }

  private async dropPrepared(ticketId: string): Promise<void> {
    const prepared = this.prepared.get(ticketId);
    if (!prepared) return;
    this.prepared.delete(ticketId);
    await this.closePrepared(prepared);
  }

  /** Steps the ticket's episode; the step that ends it stores it, and the last one closes the ticket and submits its run. */
  private async step(call: LiveCall, ticketId: string): Promise<LiveReply> {
    const { ticket, tokenId } = await this.liveTicket(call, ticketId);
    const parsed = StepBody.safeParse(this.readBody(call));
    if (!parsed.success)
      throw new ApiError('INVALID_SUBMISSION', `Invalid step: ${parsed.error.issues[0].message}`, { path: parsed.error.issues[0].path.map(String) });
    const p = this.playing.get(ticketId);
    if (!p) throw new ApiError('RESET_NEEDED', `Live ticket ${ticketId} has no episode in play: reset to start its next one`);
    if (!p.sessionId)
      throw new ApiError('EPISODE_IN_PROGRESS', `Episode ${p.position} of live ticket ${ticketId} is still being reset: step it once its reset answers`);
    const session = this.sessions.get(p.sessionId);
    const r = await session.step(parsed.data.action);
    const over = r.terminated || r.truncated;
    let closed: Awaited<ReturnType<LivePlay['finish']>> | null = null;
    if (over) {
      this.forget(p);
      const hosting = this.hosting.get(ticketId);
      // Not hosted any more: the ticket was handed back during this step, and the next worker goes on with it.
      if (!hosting) await this.stored(ticketId);
      else if (hosting.ended.add(p.position).size === ticketEpisodes(ticket).length) {
        this.retire(session);
        closed = await this.finish(ticket, tokenId);
      } else {
        this.prepare(ticket, session);
        await this.stored(ticketId);
      }
    }
    return answer(call, 200, (sink) => {
      const body = stepBody(r, sink, LIVE_EXTRAS);
      const { outcome, ...info } = body.info as typeof body.info & { outcome?: unknown };
      return { ...body, info: { ...info, ...(outcome ? { outcome } : {}), ...(closed ? { ticket: closed } : {}) } };
    });
  }

  /**
   * What the player says about its agent: harness, model, code version, and for a trained policy
   * its training settings and learning curve. Taken until the last episode ends (the run is
   * submitted then), each call replacing the last; stored and shown as claimed.
   */
  private async claims(call: LiveCall, ticketId: string): Promise<LiveReply> {
    await this.liveTicket(call, ticketId);
    const parsed = LiveClaims.safeParse(this.readBody(call, MAX_CLAIMS_BODY));
    if (!parsed.success) throw invalidAt('claims', parsed.error.issues[0]);
    const [row] = await this.db
      .update(tickets)
      .set({ live: sql`jsonb_set(${tickets.live}, '{claims}', ${JSON.stringify(parsed.data)}::jsonb)` })
      .where(and(eq(tickets.id, ticketId), isNull(tickets.closedAt)))
      .returning();
    if (!row) throw new ApiError('TICKET_CLOSED', `Live ticket ${ticketId} is closed: its run was submitted without these claims`, { ticket: ticketId });
    const known = this.open.get(ticketId);
    if (known) known.ticket = row;
    return jsonReply(200, { ticket: ticketJson(row, await endedPositions(this.db, ticketId)) });
  }

  /** Ends the ticket: an episode in play is stored truncated, unplayed ones stay unplayed, the run is submitted. */
  private async close(call: LiveCall, ticketId: string): Promise<LiveReply> {
    const { ticket, tokenId } = await this.liveTicket(call, ticketId);
    await this.closeSession(ticketId, { code: 'TICKET_CLOSED', message: 'the player closed the live ticket' });
    return jsonReply(200, { ticket: await this.finish(ticket, tokenId) });
  }

  /**
   * Closes the ticket once and submits what was played, through intake() like any run: the
   * ticket's seeds may be shown from now on, and the verification queue replays every episode.
   */
  private async finish(ticket: TicketRow, tokenId: number) {
    await this.dropPrepared(ticket.id);
    await this.stored(ticket.id);
    const [row] = await this.db
      .update(tickets)
      .set({ closedAt: new Date() })
      .where(and(eq(tickets.id, ticket.id), isNull(tickets.closedAt)))
      .returning();
    this.unhost(ticket.id, 'closed');
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

  /** Hands every hosted ticket back (its episode in play to be played again on a fresh seed) and closes the browsers. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.hosting.keys()].map((id) => this.release(id)));
    await this.sessions.shutdown();
    await Promise.all([...this.stores.values()]);
  }
}
