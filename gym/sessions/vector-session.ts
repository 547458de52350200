import type { VectorResetOptions, VectorResetResult, VectorStepResult } from '../core/vector-env';
import type { ResetInfo } from '../env/env';
import type { Observation } from '../env/observation';
import { SessionCalls } from './session-calls';
import type { EpisodeOutcome, FaultCause, PooledStepInfo } from '../pool/outcome';
import type { Action } from '../schema/action';
import { BatchedVectorEnv, type ArcadeVectorEnv } from '../vector/make-vector-env';

export interface VectorSessionStatus {
  id: string;
  game: string;
  numEnvs: number;
  batched: boolean;
  instancesPerPage: number | null;
  autoreset: 'next-step' | 'same-step';
  createdAt: string;
  lastActiveAt: string;
  idleTimeoutMs: number;
  expiresInMs: number;
  totalSteps: number;
  episodes: number;
}

/** A finished sub-env episode, with the sub-env it belongs to. */
export interface IndexedOutcome extends EpisodeOutcome {
  index: number;
}

/**
 * A client's vector env with a lease: one id for `numEnvs` sub-envs of one game, stepped by
 * one call (on batched pages where the game allows, gym/batch). Like a `Session`, calls are not
 * queued (SESSION_BUSY) and an idle one is reclaimed by the manager's collector. Episodes still
 * running when it closes end as truncated with the cause it was closed for.
 */
export class VectorSession {
  readonly createdAt = Date.now();
  private vectorSteps = 0;
  private finished = 0;
  private closingCause: FaultCause | null = null;
  private closedOutcomes: IndexedOutcome[] | null = null;
  private readonly calls: SessionCalls;

  constructor(
    readonly id: string,
    readonly env: ArcadeVectorEnv,
    readonly game: string,
    readonly idleTimeoutMs: number,
  ) {
    this.calls = new SessionCalls(`Vector session ${id} is still answering an earlier call: wait for it (calls are not queued)`);
  }

  get numEnvs(): number {
    return this.env.numEnvs;
  }

  get busy(): boolean {
    return this.calls.busy;
  }

  get lastActiveAt(): number {
    return this.calls.lastActive;
  }

  /**
   * @internal The manager's onEpisode hook feeds this; returns the outcome as it is reported: an
   * episode cut short by closing the session carries the reason it was closed.
   */
  noteOutcome(index: number, outcome: EpisodeOutcome): EpisodeOutcome {
    this.finished++;
    if (!this.closingCause || outcome.cause?.code !== 'CLOSED') return outcome;
    const closed: EpisodeOutcome = { ...outcome, cause: this.closingCause };
    this.closedOutcomes?.push({ ...closed, index });
    return closed;
  }

  reset(options: VectorResetOptions = {}): Promise<VectorResetResult<Observation, ResetInfo>> {
    return this.calls.run(async () => this.env.reset(options));
  }

  step(actions: readonly (Action | number)[]): Promise<VectorStepResult<Observation, PooledStepInfo, ResetInfo>> {
    return this.calls.run(async () => {
      const r = await this.env.step(actions);
      this.vectorSteps++;
      return r;
    });
  }

  /** Resolves when the call in flight (if any) has answered, or after `ms`. */
  settle(ms: number): Promise<boolean> {
    return this.calls.settle(ms);
  }

  isExpired(now = Date.now()): boolean {
    return !this.busy && now - this.calls.lastActive >= this.idleTimeoutMs;
  }

  status(now = Date.now()): VectorSessionStatus {
    const batched = this.env instanceof BatchedVectorEnv;
    return {
      id: this.id,
      game: this.game,
      numEnvs: this.numEnvs,
      batched,
      instancesPerPage: batched ? (this.env as BatchedVectorEnv).instancesPerPage : 1,
      autoreset: this.env.autoresetMode,
      createdAt: new Date(this.createdAt).toISOString(),
      lastActiveAt: new Date(this.calls.lastActive).toISOString(),
      idleTimeoutMs: this.idleTimeoutMs,
      expiresInMs: this.calls.expiresInMs(this.idleTimeoutMs, now),
      totalSteps: this.vectorSteps,
      episodes: this.finished,
    };
  }

  /** Closes every sub-env; returns the episodes that were still running, ended as truncated with `cause`. */
  async close(cause: FaultCause): Promise<IndexedOutcome[]> {
    this.closingCause = cause;
    this.closedOutcomes = [];
    await this.env.close();
    return this.closedOutcomes.sort((a, b) => a.index - b.index);
  }
}
