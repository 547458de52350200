import { canonicalJson } from '../schema/records';
import type { FaultCause } from './outcome';

/**
 * Recovery by replay, as the pooled env (a page per episode, ArcadeEnv.restoreEpisode) and the
 * batched env (many per page, gym/batch/page-replay.ts) both do it: a lost episode is rebuilt from
 * its seed and actions, and trusted only if every replayed step reads as the lost one did. This is
 * that check and the cause an episode ends with when it fails.
 */

/** Index of the first replayed step that differs from the one seen (canonical JSON), or null when all agree. */
export function firstMismatch(seen: readonly unknown[], replayed: readonly unknown[]): number | null {
  const n = Math.min(seen.length, replayed.length);
  for (let i = 0; i < n; i++) if (canonicalJson(seen[i]) !== canonicalJson(replayed[i])) return i;
  return seen.length === replayed.length ? null : n;
}

/** Why a rebuilt episode was not trusted: it differs at `step` (the reset's reading is step 0). */
export function replayMismatch(step: number, lostTo?: string): FaultCause {
  return {
    code: 'REPLAY_MISMATCH',
    message: `the rebuilt episode differs from the lost one at step ${step} (is the game deterministic?)${lostTo ? `; it was lost to ${lostTo}` : ''}`,
  };
}
