/**
 * Rebuilding episodes in a batch page: each instance is reloaded with its seed and its actions are
 * replayed, checked step by step against what the lost page showed. What the batched env records
 * per step (`Seen`) is what a replay must reproduce.
 */
import type { CatalogEntry } from '../catalog-schema';
import { resetPlan } from '../env/reset-plan';
import type { FaultCause } from '../pool/outcome';
import { firstMismatch, replayMismatch } from '../pool/replay-check';
import type { ObservationRequest, PageStepResult } from '../runtime/protocol';
import type { GuiAction } from '../schema/action';
import type { BatchedPage } from './batched-page';

/** What one step left in the page: the reading a replay must reproduce. */
export interface Seen {
  state: unknown;
  virtualTimeMs: number;
}

/** An episode to rebuild: where it lives in the page, its seed, its actions and what each step read (the reset's first). */
export interface ReplayedEpisode {
  slot: number;
  seed: number;
  actions: readonly GuiAction[];
  seen: readonly Seen[];
}

const STATE_ONLY: ObservationRequest = { state: true, vector: false, pixels: null, frameHash: false };
/** Replayed steps per page call, shared among the instances being rebuilt. */
const REPLAY_STEPS_PER_CALL = 256;

const reading = (r: PageStepResult): Seen => ({ state: r.state, virtualTimeMs: r.virtualTimeMs });

/**
 * Reloads `episodes` in `page` with their seeds and replays their actions, a chunk of each per
 * call; an episode whose replay fails or differs from what was seen is handed to `abandon` with
 * the cause (REPLAY_MISMATCH, PAGE_ERROR). Page faults are thrown (the caller rebuilds again).
 */
export async function replayInPage<E extends ReplayedEpisode>(
  page: BatchedPage,
  game: CatalogEntry,
  msPerStep: number,
  episodes: readonly E[],
  abandon: (episode: E, cause: FaultCause) => void,
): Promise<void> {
  const loaded = await page.load(episodes.map((e) => ({ slot: e.slot, seed: e.seed })));
  const plans = await page.run(episodes.map((e, k) => [e.slot, loaded[k].error ? [] : resetPlan(game.manifest, STATE_ONLY)] as const));
  let replaying: E[] = [];
  for (const [k, e] of episodes.entries()) {
    const error = loaded[k].error ?? plans[k].error;
    const first = plans[k].ok?.at(-1);
    if (error || !first) abandon(e, { code: 'PAGE_ERROR', message: `rebuilding the episode failed: ${error ?? 'no reading'}` });
    else if (firstMismatch(e.seen.slice(0, 1), [reading(first)]) !== null) abandon(e, replayMismatch(0));
    else replaying.push(e);
  }
  const chunk = Math.max(4, Math.floor(REPLAY_STEPS_PER_CALL / Math.max(1, replaying.length)));
  for (let start = 0; replaying.length; start += chunk) {
    replaying = replaying.filter((e) => start < e.actions.length);
    if (!replaying.length) break;
    const results = await page.run(
      replaying.map((e) => [e.slot, e.actions.slice(start, start + chunk).map((action) => ({ action, ms: msPerStep, obs: STATE_ONLY }))] as const),
    );
    replaying = replaying.filter((e, k) => {
      const r = results[k];
      if (r.error !== undefined) {
        abandon(e, { code: 'PAGE_ERROR', message: `replaying the episode failed: ${r.error}` });
        return false;
      }
      const bad = firstMismatch(e.seen.slice(start + 1, start + 1 + r.ok.length), r.ok.map(reading));
      if (bad !== null) abandon(e, replayMismatch(start + bad + 1));
      return bad === null;
    });
  }
}
