import type { Env, ResetOptions } from '../core/env';
import type { ResetInfo, ResetResult } from '../env/env';
import type { Observation, Space } from '../env/observation';
import type { Action } from '../schema/action';
import type { PooledEnv } from '../pool/pooled-env';
import type { EpisodeOutcome, FaultCause, PageState, PooledStepInfo, PooledStepResult } from '../pool/outcome';
import { SessionCalls } from './session-calls';
import { WatchHub } from './session-watch';

export interface SessionStatus {
  id: string;
  game: string;
  state: PageState;
  createdAt: string;
  lastActiveAt: string;
  idleTimeoutMs: number;
  /** Until the garbage collector may reclaim the session, if it stays idle. */
  expiresInMs: number;
  /** Episodes started in this session. */
  episodes: number;
  /** Steps of the current episode. */
  episodeSteps: number;
  episodeSeed: number | null;
  episodeInProgress: boolean;
  /** Steps taken in this session, all episodes. */
  totalSteps: number;
  /** Page rebuilds in this session, all episodes. */
  recoveries: number;
  /** The pool's id of the browser holding the page. */
  browserId: number;
  maxSteps: number;
  lastOutcome: { status: EpisodeOutcome['status']; score: number; length: number; cause?: FaultCause } | null;
  /** People watching this session live. */
  watchers: number;
  /** Score of the current (or last) episode. */
  score: number;
}

/**
 * A client's env with a lease: an id, the pooled env behind it, and when it was last used.
 * It is an Env itself (what the HTTP API serves is exactly this interface).
 * A session left idle longer than its timeout is reclaimed by the manager's collector.
 * Calls are not queued: a second call while one runs is refused (SESSION_BUSY).
 */
export class Session implements Env<Observation, Action | number, ResetInfo, PooledStepInfo> {
  readonly createdAt = Date.now();
  private episodes = 0;
  private totalSteps = 0;
  private totalRecoveries = 0;
  private lastOutcome: EpisodeOutcome | null = null;
  private score = 0;
  readonly watch = new WatchHub(() => this.captureFrame());
  private readonly calls: SessionCalls;

  constructor(
    readonly id: string,
    readonly env: PooledEnv,
    readonly idleTimeoutMs: number,
  ) {
    this.calls = new SessionCalls(`Session ${id} is still answering an earlier call: wait for it (calls are not queued)`);
  }

  get state(): PageState {
    return this.env.state;
  }

  get observationSpace(): Space {
    return this.env.observationSpace;
  }

  get actionSpace(): Space {
    return this.env.actionSpace;
  }

  get manifest() {
    return this.env.manifest;
  }

  get lastActiveAt(): number {
    return this.calls.lastActive;
  }

  get busy(): boolean {
    return this.calls.busy;
  }

  /** @internal The manager's onEpisodeEnd hook feeds this. */
  noteOutcome(outcome: EpisodeOutcome): void {
    this.lastOutcome = outcome;
    this.totalRecoveries += outcome.recoveries.length;
  }

  reset(opts: ResetOptions = {}): Promise<ResetResult> {
    return this.calls.run(() =>
      this.env.reset(opts).then((r) => {
        this.episodes++;
        this.score = r.info.state.score;
        return r;
      }),
    );
  }

  step(action: Action | number): Promise<PooledStepResult> {
    return this.calls.run(() =>
      this.env.step(action).then(async (r) => {
        if (!r.info.failure) this.totalSteps++;
        this.score = r.info.score;
        await this.watch.publish({
          step: r.info.step,
          score: r.info.score,
          reward: r.reward,
          terminated: r.terminated,
          truncated: r.truncated,
          virtualTimeMs: r.info.virtualTimeMs,
        });
        return r;
      }),
    );
  }

  /** The game canvas as a JPEG data URL, read in the page (no screenshot, so no painting needed). */
  private async captureFrame(): Promise<string | null> {
    const page = this.env.env.currentPage;
    if (!page) return null;
    return page.evaluate(() => {
      const el = globalThis.__arcade.gameElement();
      return el instanceof HTMLCanvasElement ? el.toDataURL('image/jpeg', 0.7) : null;
    });
  }

  /** Resolves when the call in flight (if any) has answered, or after `ms`. */
  settle(ms: number): Promise<boolean> {
    return this.calls.settle(ms);
  }

  /** Restarts the idle timeout, as a call would (a session prepared ahead and handed to its user now). */
  touch(): void {
    this.calls.touch();
  }

  /** Idle (or crashed and untouched) for longer than its timeout. */
  isExpired(now = Date.now()): boolean {
    return !this.busy && (this.state === 'idle' || this.state === 'crashed') && now - this.calls.lastActive >= this.idleTimeoutMs;
  }

  status(now = Date.now()): SessionStatus {
    const o = this.lastOutcome;
    const inProgressRecoveries = this.env.episodeInProgress ? this.env.recoveries.length : 0;
    return {
      id: this.id,
      game: this.env.manifest.id,
      state: this.state,
      createdAt: new Date(this.createdAt).toISOString(),
      lastActiveAt: new Date(this.calls.lastActive).toISOString(),
      idleTimeoutMs: this.idleTimeoutMs,
      expiresInMs: this.calls.expiresInMs(this.idleTimeoutMs, now),
      episodes: this.episodes,
      episodeSteps: this.env.episodeSteps,
      episodeSeed: this.env.episodeSeed,
      episodeInProgress: this.env.episodeInProgress,
      totalSteps: this.totalSteps,
      recoveries: this.totalRecoveries + inProgressRecoveries,
      browserId: this.env.browserId,
      maxSteps: this.env.env.maxSteps,
      lastOutcome: o ? { status: o.status, score: o.record.totals.score, length: o.record.totals.length, ...(o.cause ? { cause: o.cause } : {}) } : null,
      watchers: this.watch.watchers,
      score: this.score,
    };
  }

  close(cause?: FaultCause): Promise<EpisodeOutcome | null> {
    this.watch.closeAll();
    return this.env.close(cause);
  }
}
