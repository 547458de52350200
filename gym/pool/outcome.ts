import type { EpisodeRecord } from '../schema/records';
import type { StepInfo, StepResult } from '../env/env';

/** What a page can be doing, as sessions and the HTTP API report it. */
export type PageState = 'idle' | 'stepping' | 'crashed' | 'recovering' | 'closed';

/** Why something failed, in the HTTP API's error shape. */
export interface FaultCause {
  code: string;
  message: string;
}

/** One rebuild of an episode on a fresh page. */
export interface RecoveryEvent {
  /** Steps the episode had taken when the fault hit (the failed step is retried after the rebuild). */
  atStep: number;
  cause: FaultCause;
  /** Rebuilds tried before one held (1 = the first one did). */
  attempts: number;
  /** Steps replayed to rebuild the page; every one matched what was seen before. */
  replayedSteps: number;
  /** Wall time from the fault to the retried step's answer. */
  ms: number;
}

/**
 * How an episode ended, for every episode a pooled env starts:
 * - complete: it ran to termination or its step budget with no fault;
 * - recovered: the same, after one or more rebuilds (its record equals a fault-free run's);
 * - truncated: the gym ended it early, for `cause` (a fault it could not recover from, a
 *   replay that did not match, a reset or close before the end, idle timeout, shutdown).
 *   Its record has `totals.truncated` and, when the page was lost, finalFrameHash "unavailable".
 */
export interface EpisodeOutcome {
  status: 'complete' | 'recovered' | 'truncated';
  record: EpisodeRecord;
  recoveries: RecoveryEvent[];
  cause?: FaultCause;
}

export interface PooledStepInfo extends StepInfo {
  /** Set when this step needed the page rebuilt first. */
  recovered?: RecoveryEvent;
  /** Set when the episode could not be kept going: it ends on this step, truncated. */
  failure?: FaultCause & { attempts: number };
  /** On the step that ends the episode. */
  outcome?: EpisodeOutcome;
}

export type PooledStepResult = Omit<StepResult, 'info'> & { info: PooledStepInfo };

export function causeOf(e: unknown): FaultCause {
  if (e && typeof e === 'object' && 'code' in e && typeof (e as { code: unknown }).code === 'string' && e instanceof Error) {
    return { code: (e as Error & { code: string }).code, message: e.message.split('\n')[0] };
  }
  return { code: 'PAGE_ERROR', message: (e instanceof Error ? e.message : String(e)).split('\n')[0] };
}
