import type { Env, ResetOptions } from '../core/env';
import { makeEnv, type ArcadeEnv, type ReplayedStep, type ResetInfo, type ResetResult } from '../env/env';
import type { EnvOptionsInput } from '../env/options';
import type { Observation, Space } from '../env/observation';
import { ArcadeGymError } from '../errors';
import type { Action } from '../schema/action';
import type { EpisodeRecord } from '../schema/records';
import { firstMismatch, replayMismatch } from './replay-check';
import type { BrowserPool, PageSlot } from './browser-pool';
import { ServiceError } from './errors';
import { causeOf, type EpisodeOutcome, type FaultCause, type PageState, type PooledStepInfo, type PooledStepResult, type RecoveryEvent } from './outcome';

/** Errors that are the caller's to fix: passed through, never treated as a page fault. */
const CALLER_ERRORS = new Set([
  'INVALID_ACTION',
  'ACTION_OUT_OF_RANGE',
  'INVALID_OPTIONS',
  'RESET_NEEDED',
  'EPISODE_ENDED',
  'ENV_CLOSED',
  'UNKNOWN_GAME',
  'GAME_NOT_BUILT',
]);

function isCallerError(e: unknown): boolean {
  if (e instanceof ArcadeGymError) return CALLER_ERRORS.has(e.code);
  if (e instanceof ServiceError) return e.code === 'SESSION_BUSY' || e.code === 'POOL_CLOSED';
  return false;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface PooledEnvOptions {
  /** Rebuilds tried per fault before the episode is ended as truncated. */
  maxRecoveries?: number;
  /** Every episode this env starts ends here exactly once. */
  onEpisodeEnd?: (outcome: EpisodeOutcome) => void;
  onStateChange?: (state: PageState) => void;
}

interface EpisodeLog {
  seed: number;
  /** Its outcome has been reported (it ended, or was cut short). */
  ended: boolean;
  /**
   * While a rebuild is under way: the record as it stood when the page was lost. The env's
   * own episode is then a replay in progress, not the episode to report if the rebuild fails.
   */
  lostRecord: EpisodeRecord | null;
  actions: (Action | number)[];
  /** What each step showed, to check a replay against. */
  seen: ReplayedStep[];
  recoveries: RecoveryEvent[];
  lastObservation: Observation;
  lastInfo: PooledStepInfo;
}

/**
 * An ArcadeEnv on a page of a BrowserPool that survives its page (an Env like any other).
 * Its page is leased by `open()` (or, for an env made with `new`, by `lease()` or the first
 * reset), so its spaces are known before any browser starts. When a step fails because
 * the page crashed, hung past its timeout, or lost its browser, the episode is rebuilt on a
 * fresh page (in a replacement browser if needed) by replaying its seed and actions, the
 * replay is checked step by step against what was seen, and the failed step is retried. Only
 * when that keeps failing does the episode end, as truncated with the cause in `info.failure`.
 * Every episode's end is reported once to `onEpisodeEnd`: none is lost silently.
 */
export class PooledEnv implements Env<Observation, Action | number, ResetInfo, PooledStepInfo> {
  readonly env: ArcadeEnv;
  private pageState: PageState = 'idle';
  private busy = false;
  private closed = false;
  private log: EpisodeLog | null = null;
  private readonly maxRecoveries: number;
  private slotHeld: PageSlot | null = null;
  private leasing: Promise<PageSlot> | null = null;
  private unsubscribeLost: () => void = () => undefined;

  /** Validates the options; the page is leased later (see the class comment). */
  constructor(
    private readonly pool: BrowserPool,
    options: EnvOptionsInput,
    private readonly opts: PooledEnvOptions = {},
  ) {
    // Pooled episodes always keep records: outcomes carry them, and recovery is checked against them.
    // Spare pages would take pages the pool does not count: none unless asked for.
    this.env = makeEnv({ spares: 0, ...options, record: true });
    this.maxRecoveries = opts.maxRecoveries ?? 3;
  }

  /** Validates the options (before taking a page), then leases a page of `pool`. */
  static async open(pool: BrowserPool, options: EnvOptionsInput, opts: PooledEnvOptions = {}): Promise<PooledEnv> {
    const env = new PooledEnv(pool, options, opts);
    await env.lease();
    return env;
  }

  /** Takes a page of the pool (once; later calls return the same one). */
  async lease(): Promise<void> {
    if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This env has been closed');
    this.leasing ??= this.pool.lease().then(
      (slot) => {
        if (this.closed) {
          slot.release();
          throw new ArcadeGymError('ENV_CLOSED', 'This env was closed while it waited for a page');
        }
        this.slotHeld = slot;
        this.env.useBrowser(slot.browser);
        this.unsubscribeLost = slot.onLost(() => {
          if (this.pageState === 'idle') this.setPageState('crashed');
        });
        return slot;
      },
      (e: unknown) => {
        this.leasing = null;
        throw e;
      },
    );
    await this.leasing;
  }

  /**
   * Gives the page back to the pool without closing the env (a vector env that could not
   * lease all its pages does this); a later reset leases one again. Refused mid-episode.
   */
  async release(): Promise<void> {
    if (this.busy || this.episodeInProgress) throw new ServiceError('SESSION_BUSY', 'release(): an episode is running on this env');
    await this.leasing?.catch(() => undefined);
    if (!this.slotHeld) return;
    this.unsubscribeLost();
    this.unsubscribeLost = () => undefined;
    this.slotHeld.release();
    this.slotHeld = null;
    this.leasing = null;
  }

  /** Whether this env holds a page of the pool. */
  get leased(): boolean {
    return this.slotHeld !== null;
  }

  private get slot(): PageSlot {
    if (!this.slotHeld) throw new ArcadeGymError('RESET_NEEDED', 'This env has no page yet: call reset() first');
    return this.slotHeld;
  }

  get observationSpace(): Space {
    return this.env.observationSpace;
  }

  get actionSpace(): Space {
    return this.env.actionSpace;
  }

  get state(): PageState {
    return this.pageState;
  }

  get manifest() {
    return this.env.manifest;
  }

  /** The pool's id of the browser this env's page lives in (changes when it is replaced); -1 before it has one. */
  get browserId(): number {
    return this.slotHeld?.browserId ?? -1;
  }

  /** Steps taken in the current episode (0 before the first reset). */
  get episodeSteps(): number {
    return this.log?.actions.length ?? 0;
  }

  get episodeSeed(): number | null {
    return this.log?.seed ?? null;
  }

  get episodeInProgress(): boolean {
    return !!this.log && !this.log.ended;
  }

  /** Rebuilds done in the current episode. */
  get recoveries(): readonly RecoveryEvent[] {
    return this.log?.recoveries ?? [];
  }

  private setPageState(s: PageState): void {
    if (this.pageState === s || this.pageState === 'closed') return;
    this.pageState = s;
    this.opts.onStateChange?.(s);
  }

  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This env has been closed');
    if (this.busy) throw new ServiceError('SESSION_BUSY', 'Another reset or step is still running on this env: wait for its answer');
    this.busy = true;
    try {
      return await fn();
    } finally {
      this.busy = false;
      if (!this.closed) this.setPageState(this.slotHeld?.lost ? 'crashed' : 'idle');
    }
  }

  /** The page of the current episode reports its crash here, while nobody is stepping it. */
  private watchPage(): void {
    const page = this.env.currentPage;
    page?.once('crash', () => {
      if (this.pageState === 'idle' && this.env.currentPage === page) this.setPageState('crashed');
    });
  }

  /** Points the env at a browser that answers (its own, or a replacement). */
  private async attachHealthyBrowser(probe: boolean, newEpisode = false): Promise<void> {
    this.env.useBrowser(await this.slot.healthyBrowser({ probe, newEpisode }));
  }

  private finishEpisode(outcome: EpisodeOutcome): void {
    this.opts.onEpisodeEnd?.(outcome);
  }

  /** Ends an unfinished episode with `cause`; returns its outcome (null when there was none). */
  private abandon(cause: FaultCause): EpisodeOutcome | null {
    const log = this.log;
    if (!log || log.ended) return null;
    log.ended = true;
    // Whatever the env holds now (a replay cut short, or the episode itself) is over too.
    const current = this.env.abandonEpisode();
    const record = log.lostRecord ?? current;
    if (!record) return null;
    const outcome: EpisodeOutcome = { status: 'truncated', record, recoveries: [...log.recoveries], cause };
    this.finishEpisode(outcome);
    return outcome;
  }

  /**
   * Starts an episode on a fresh page. A page or browser that fails during the reset is
   * replaced and the reset tried again (with the same seed); an episode still running is
   * ended first, as truncated ("ABANDONED").
   */
  reset(opts: ResetOptions = {}): Promise<ResetResult> {
    return this.exclusive(async () => {
      await this.lease();
      this.abandon({ code: 'ABANDONED', message: 'reset() before the episode ended' });
      this.log = null;
      this.setPageState('stepping');
      let last: unknown;
      for (let attempt = 0; attempt <= this.maxRecoveries; attempt++) {
        if (attempt > 0) {
          this.setPageState('recovering');
          await sleep(100 * attempt);
        }
        try {
          await this.attachHealthyBrowser(attempt > 0, true);
          const r = await this.env.reset(opts);
          this.log = {
            seed: r.info.seed,
            ended: false,
            lostRecord: null,
            actions: [],
            seen: [],
            recoveries: [],
            lastObservation: r.observation,
            lastInfo: { step: 0, score: r.info.state.score, state: r.info.state, virtualTimeMs: r.info.virtualTimeMs },
          };
          this.watchPage();
          return r;
        } catch (e) {
          if (isCallerError(e)) throw e;
          last = e;
        }
      }
      const cause = causeOf(last);
      throw new ServiceError('RESET_FAILED', `reset failed ${this.maxRecoveries + 1} times on fresh pages: ${cause.code}: ${cause.message}`);
    });
  }

  /**
   * One step. Faults are recovered from as described on the class; caller errors (malformed
   * action, no reset, episode over) are thrown as they are.
   */
  step(action: Action | number): Promise<PooledStepResult> {
    return this.exclusive(async () => {
      const log = this.log;
      if (!log) return this.env.step(action); // throws the env's clear error (no reset yet)
      if (log.ended) {
        throw new ArcadeGymError('EPISODE_ENDED', `The episode has ended (after ${log.actions.length} steps): call reset() before stepping again`);
      }
      this.setPageState('stepping');
      let r: PooledStepResult;
      try {
        r = await this.env.step(action);
      } catch (e) {
        if (isCallerError(e)) throw e;
        r = await this.recover(log, action, e);
        if (r.info.failure) return r;
      }
      // Closed while the page answered: close() has already recorded the episode.
      if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This env was closed during the step');
      log.actions.push(action);
      log.seen.push({ reward: r.reward, terminated: r.terminated, truncated: r.truncated, state: r.info.state, virtualTimeMs: r.info.virtualTimeMs });
      log.lastObservation = r.observation;
      log.lastInfo = r.info;
      if (r.terminated || r.truncated) {
        log.ended = true;
        const outcome: EpisodeOutcome = { status: log.recoveries.length ? 'recovered' : 'complete', record: r.info.episode!, recoveries: [...log.recoveries] };
        r.info.outcome = outcome;
        this.finishEpisode(outcome);
      }
      return r;
    });
  }

  private async recover(log: EpisodeLog, action: Action | number, fault: unknown): Promise<PooledStepResult> {
    const started = performance.now();
    let last = fault;
    log.lostRecord = this.env.abandonEpisode();
    for (let attempt = 1; attempt <= this.maxRecoveries; attempt++) {
      this.setPageState('recovering');
      if (attempt > 1) await sleep(100 * attempt);
      try {
        await this.attachHealthyBrowser(true);
        const replayed = await this.env.restoreEpisode(log.seed, log.actions).catch((e: unknown) => {
          // The replay ended the episode before its last action: not the episode that was lost.
          if (e instanceof ArcadeGymError && e.code === 'EPISODE_ENDED') return null;
          throw e;
        });
        const mismatch = replayed ? firstMismatch(log.seen, replayed) : log.seen.length;
        if (mismatch !== null) {
          return this.giveUp(log, replayMismatch(mismatch, causeOf(fault).code), attempt);
        }
        this.watchPage();
        this.setPageState('stepping');
        const r: PooledStepResult = await this.env.step(action);
        const event: RecoveryEvent = {
          atStep: log.actions.length,
          cause: causeOf(fault),
          attempts: attempt,
          replayedSteps: replayed!.length,
          ms: Math.round(performance.now() - started),
        };
        log.recoveries.push(event);
        log.lostRecord = null;
        r.info.recovered = event;
        return r;
      } catch (e) {
        if (isCallerError(e)) throw e;
        last = e;
      }
    }
    return this.giveUp(log, causeOf(last), this.maxRecoveries);
  }

  /** Ends the episode as truncated on the last step that worked, with the cause in info. */
  private giveUp(log: EpisodeLog, cause: FaultCause, attempts: number): PooledStepResult {
    const outcome = this.abandon(cause)!;
    const info: PooledStepInfo = { ...log.lastInfo, failure: { ...cause, attempts }, episode: outcome.record, outcome };
    delete info.recovered;
    delete info.gameErrors;
    return { observation: log.lastObservation, reward: 0, terminated: false, truncated: true, info };
  }

  /**
   * Gives the page back to the pool. An episode still running is ended as truncated with
   * `cause` (default "CLOSED") and its outcome returned.
   */
  async close(cause: FaultCause = { code: 'CLOSED', message: 'closed before the episode ended' }): Promise<EpisodeOutcome | null> {
    if (this.closed) return null;
    this.closed = true;
    const outcome = this.abandon(cause);
    this.unsubscribeLost();
    await this.env.close();
    this.slotHeld?.release();
    this.pageState = 'closed';
    this.opts.onStateChange?.('closed');
    return outcome;
  }
}
