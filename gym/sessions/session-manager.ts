import { randomBytes } from 'node:crypto';
import type { EnvOptionsInput } from '../env/options';
import { BrowserPool } from '../pool/browser-pool';
import { ServiceError } from '../pool/errors';
import type { PoolOptionsInput } from '../pool/options';
import type { EpisodeOutcome, FaultCause } from '../pool/outcome';
import { PooledEnv } from '../pool/pooled-env';
import { makeVectorEnv, type VectorEnvOptions } from '../vector/make-vector-env';
import { Session, type SessionStatus } from './session';
import { VectorSession, type IndexedOutcome, type VectorSessionStatus } from './vector-session';

export interface SessionManagerOptions {
  /** A pool to share, or options for one the manager owns (and closes at shutdown). */
  pool?: BrowserPool | PoolOptionsInput;
  /** Open sessions allowed at once; more are refused with BUSY. Defaults to the pool's capacity. */
  maxSessions?: number;
  /** A session idle this long is reclaimed (its episode recorded as truncated, IDLE_TIMEOUT). */
  idleTimeoutMs?: number;
  /** Upper bound for a session's own idleTimeoutMs. */
  maxIdleTimeoutMs?: number;
  /** How often the collector looks for expired sessions. */
  gcIntervalMs?: number;
  /** Page rebuilds tried per fault before an episode is ended as truncated. */
  maxRecoveries?: number;
  /** How long shutdown waits for calls in flight before closing their sessions anyway. */
  shutdownGraceMs?: number;
  /** Every episode any session starts ends here once: complete, recovered or truncated with a cause. */
  onEpisode?: (sessionId: string, outcome: EpisodeOutcome) => void;
}

export interface SessionSpec {
  env: EnvOptionsInput;
  idleTimeoutMs?: number;
}

export interface VectorSessionSpec {
  env: Omit<VectorEnvOptions, 'pool' | 'poolOptions' | 'maxRecoveries' | 'onEpisode' | 'wrapEnv' | 'validateAction'>;
  idleTimeoutMs?: number;
}

export interface ShutdownReport {
  sessionsClosed: number;
  /** Episodes that were still running and were recorded as truncated (SHUTDOWN). */
  episodesRecorded: number;
  /** Sessions whose call in flight did not answer within the grace period. */
  forced: number;
}

/** Ids of closed sessions remembered, so a late call hears "closed" rather than "not found". */
const TOMBSTONES = 1_000;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 60_000;

/**
 * Sessions by id over one browser pool: a cap on open sessions (BUSY with a retry-after,
 * never an unbounded queue), leases that expire when idle, a collector that reclaims them,
 * and a shutdown that records every episode still running.
 */
export class SessionManager {
  readonly pool: BrowserPool;
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
  private readonly ownsPool: boolean;
  private readonly sessions = new Map<string, Session>();
  private readonly vectors = new Map<string, VectorSession>();
  private readonly closedIds = new Map<string, FaultCause>();
  private creating = 0;
  private shuttingDown = false;
  private readonly gcTimer: NodeJS.Timeout;
  private counters = { created: 0, closed: 0, reclaimed: 0, episodes: 0 };

  constructor(private readonly options: SessionManagerOptions = {}) {
    this.ownsPool = !(options.pool instanceof BrowserPool);
    this.pool = options.pool instanceof BrowserPool ? options.pool : new BrowserPool(options.pool);
    this.maxSessions = options.maxSessions ?? this.pool.capacity;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 5 * 60_000;
    this.gcTimer = setInterval(() => void this.collectGarbage(), options.gcIntervalMs ?? 5_000);
    this.gcTimer.unref();
  }

  /** Open sessions, a vector session counting as one. */
  get openSessions(): number {
    return this.sessions.size + this.vectors.size;
  }

  /** When a refused client may try again: the soonest an idle session expires, within 1–60 s. */
  private retryAfterMs(): number {
    const now = Date.now();
    let soonest = RETRY_MAX_MS;
    for (const s of [...this.sessions.values(), ...this.vectors.values()]) if (!s.busy) soonest = Math.min(soonest, s.lastActiveAt + s.idleTimeoutMs - now);
    return Math.min(RETRY_MAX_MS, Math.max(RETRY_MIN_MS, soonest));
  }

  private admit(): void {
    if (this.shuttingDown) throw new ServiceError('SHUTTING_DOWN', 'The gym is shutting down: no new sessions');
    if (this.openSessions + this.creating >= this.maxSessions) {
      const retry = this.retryAfterMs();
      throw new ServiceError('BUSY', `All ${this.maxSessions} sessions are open: close one, or retry after ${Math.ceil(retry / 1000)} s`, retry);
    }
  }

  private idleTimeout(asked: number | undefined): number {
    return Math.min(asked ?? this.idleTimeoutMs, this.options.maxIdleTimeoutMs ?? 60 * 60_000);
  }

  async create(spec: SessionSpec): Promise<Session> {
    this.admit();
    const idle = this.idleTimeout(spec.idleTimeoutMs);
    const id = `ses_${randomBytes(12).toString('base64url')}`;
    const holder: { session?: Session } = {};
    this.creating++;
    let env: PooledEnv;
    try {
      env = await PooledEnv.open(this.pool, spec.env, {
        maxRecoveries: this.options.maxRecoveries,
        onEpisodeEnd: (outcome) => {
          this.counters.episodes++;
          holder.session?.noteOutcome(outcome);
          this.options.onEpisode?.(id, outcome);
        },
      });
    } catch (e) {
      if (e instanceof ServiceError && e.code === 'BUSY') throw new ServiceError('BUSY', `${e.message}: retry later`, this.retryAfterMs());
      throw e;
    } finally {
      this.creating--;
    }
    if (this.shuttingDown) {
      await env.close();
      throw new ServiceError('SHUTTING_DOWN', 'The gym is shutting down: no new sessions');
    }
    const session = new Session(id, env, idle);
    holder.session = session;
    this.sessions.set(id, session);
    this.counters.created++;
    return session;
  }

  /**
   * A vector session: `numEnvs` sub-envs of one game on the manager's pool, stepped together
   * (batched pages where the game allows, gym/batch). It counts as one session against
   * `maxSessions`; its pages are leased from the pool at its first reset, which answers BUSY
   * when the pool has too few free.
   */
  async createVector(spec: VectorSessionSpec): Promise<VectorSession> {
    this.admit();
    const idle = this.idleTimeout(spec.idleTimeoutMs);
    const id = `vec_${randomBytes(12).toString('base64url')}`;
    const holder: { session?: VectorSession } = {};
    const env = makeVectorEnv({
      ...spec.env,
      pool: this.pool,
      maxRecoveries: this.options.maxRecoveries,
      onEpisode: (index, outcome) => {
        this.counters.episodes++;
        const reported = holder.session ? holder.session.noteOutcome(index, outcome) : outcome;
        this.options.onEpisode?.(`${id}/${index}`, reported);
      },
    });
    const session = new VectorSession(id, env, spec.env.game, idle);
    holder.session = session;
    this.vectors.set(id, session);
    this.counters.created++;
    return session;
  }

  /** The open session `id`; SESSION_CLOSED or SESSION_NOT_FOUND otherwise. */
  get(id: string): Session {
    const s = this.sessions.get(id);
    if (s) return s;
    throw this.missing(id, 'Session');
  }

  /** Whether session `id` is open. */
  has(id: string): boolean {
    return this.sessions.has(id);
  }

  /** The open vector session `id`; SESSION_CLOSED or SESSION_NOT_FOUND otherwise. */
  getVector(id: string): VectorSession {
    const s = this.vectors.get(id);
    if (s) return s;
    throw this.missing(id, 'Vector session');
  }

  private missing(id: string, what: string): ServiceError {
    const closed = this.closedIds.get(id);
    if (closed) return new ServiceError('SESSION_CLOSED', `${what} ${id} is closed (${closed.code}: ${closed.message}): create a new one`);
    return new ServiceError('SESSION_NOT_FOUND', `No ${what.toLowerCase()} ${id}`);
  }

  listVectors(): VectorSessionStatus[] {
    const now = Date.now();
    return [...this.vectors.values()].map((s) => s.status(now));
  }

  private remember(id: string, cause: FaultCause): void {
    this.closedIds.set(id, cause);
    if (this.closedIds.size > TOMBSTONES) this.closedIds.delete(this.closedIds.keys().next().value!);
    this.counters.closed++;
  }

  /** Closes a vector session; its episodes still running are recorded as truncated with `cause`. */
  async closeVector(id: string, cause: FaultCause = { code: 'CLOSED', message: 'the client closed the session' }): Promise<IndexedOutcome[]> {
    const session = this.getVector(id);
    this.vectors.delete(id);
    this.remember(id, cause);
    return session.close(cause);
  }

  list(): SessionStatus[] {
    const now = Date.now();
    return [...this.sessions.values()].map((s) => s.status(now));
  }

  /** Closes a session; an episode still running is recorded as truncated with `cause`. */
  async close(id: string, cause: FaultCause = { code: 'CLOSED', message: 'the client closed the session' }): Promise<EpisodeOutcome | null> {
    const session = this.get(id);
    this.sessions.delete(id);
    this.remember(id, cause);
    return session.close(cause);
  }

  /** Reclaims sessions idle past their timeout; returns their ids. The timer calls this. */
  async collectGarbage(now = Date.now()): Promise<string[]> {
    const expired = [...this.sessions.values()].filter((s) => s.isExpired(now));
    const expiredVectors = [...this.vectors.values()].filter((s) => s.isExpired(now));
    const cause = (s: { idleTimeoutMs: number }): FaultCause => ({ code: 'IDLE_TIMEOUT', message: `idle for more than ${s.idleTimeoutMs} ms` });
    await Promise.all([
      ...expired.map((s) => this.close(s.id, cause(s)).catch(() => null)),
      ...expiredVectors.map((s) => this.closeVector(s.id, cause(s)).catch(() => null)),
    ]);
    this.counters.reclaimed += expired.length + expiredVectors.length;
    return [...expired, ...expiredVectors].map((s) => s.id);
  }

  stats() {
    return {
      open: this.openSessions,
      vectors: this.vectors.size,
      maxSessions: this.maxSessions,
      creating: this.creating,
      shuttingDown: this.shuttingDown,
      ...this.counters,
      pool: this.pool.stats(),
    };
  }

  /**
   * Refuses new sessions, lets calls in flight answer (up to the grace period), records every
   * episode still running as truncated (SHUTDOWN), closes the sessions and, if the manager
   * made it, the pool.
   */
  async shutdown(graceMs = this.options.shutdownGraceMs ?? 10_000): Promise<ShutdownReport> {
    this.shuttingDown = true;
    clearInterval(this.gcTimer);
    const report: ShutdownReport = { sessionsClosed: 0, episodesRecorded: 0, forced: 0 };
    await Promise.all([
      ...[...this.sessions.values()].map(async (s) => {
        if (!(await s.settle(graceMs))) report.forced++;
        const outcome = await this.close(s.id, { code: 'SHUTDOWN', message: 'the gym shut down before the episode ended' }).catch(() => null);
        report.sessionsClosed++;
        if (outcome) report.episodesRecorded++;
      }),
      ...[...this.vectors.values()].map(async (s) => {
        if (!(await s.settle(graceMs))) report.forced++;
        const outcomes = await this.closeVector(s.id, { code: 'SHUTDOWN', message: 'the gym shut down before the episode ended' }).catch(() => []);
        report.sessionsClosed++;
        report.episodesRecorded += outcomes.length;
      }),
    ]);
    if (this.ownsPool) await this.pool.close();
    return report;
  }
}
