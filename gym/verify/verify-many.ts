import os from 'node:os';
import type { Browser } from 'playwright-core';
import type { BatchedPage } from '../batch/batched-page';
import { measuredInstancesPerPage } from '../batch/instances-per-page';
import type { CatalogEntry } from '../catalog-schema';
import { EpisodeAccount } from '../env/episode-account';
import { resetPlan } from '../env/reset-plan';
import { resolveAction } from '../env/resolve-action';
import { stickyExecuted } from '../env/sticky-actions';
import { FRAME_HASH_UNAVAILABLE } from '../env/env';
import type { ObservationRequest } from '../runtime/protocol';
import { RUNTIME_VERSION } from '../runtime/protocol';
import type { EpisodeRecord } from '../schema/records';
import { givePage, takePage } from './idle-pages';
import { compareReplay, compareTotals, precheck, type VerificationResult } from './resimulate';

const STATE_ONLY: ObservationRequest = { state: true, vector: false, pixels: null, frameHash: false };
/** Instance-steps per call: many steps per round trip, each call still far below a step timeout. */
const STEPS_PER_CALL = 512;
const STEP_TIMEOUT_MS = 30_000;
const RESET_TIMEOUT_MS = 60_000;
/** A page that crashes or hangs is replayed again from the start, once: a replay has nothing to lose. */
const PAGE_ATTEMPTS = 2;

export interface VerifyManyOptions {
  /** Stops the verification: what is not yet verified is answered "stopped". */
  signal?: AbortSignal;
  /** Episodes per page (default: the game's measured size); pages run side by side, one per core. */
  instancesPerPage?: number;
}

interface Job {
  index: number;
  record: EpisodeRecord;
  game: CatalogEntry;
}

const STOPPED: VerificationResult = { ok: false, reason: 'verification was stopped (its budget was spent)' };

/**
 * Re-simulates many episodes the way the gym plays them: several per browser page
 * (gym/batch), a chunk of every episode's actions per call, pages side by side. Each result is
 * what `verifyEpisode` gives for that record alone, in the input's order.
 */
export async function verifyEpisodes(inputs: readonly unknown[], browser: Browser, opts: VerifyManyOptions = {}): Promise<VerificationResult[]> {
  const results: (VerificationResult | undefined)[] = new Array(inputs.length);
  const groups = new Map<string, Job[]>();
  for (const [index, input] of inputs.entries()) {
    const checked = precheck(input);
    if (!checked.ok) {
      results[index] = checked.result;
      continue;
    }
    const key = `${checked.game.manifest.id}/${checked.record.deviceScaleFactor}`;
    groups.set(key, [...(groups.get(key) ?? []), { index, record: checked.record, game: checked.game }]);
  }
  const pages: Job[][] = [];
  for (const jobs of groups.values()) {
    const n =
      opts.instancesPerPage ??
      (await measuredInstancesPerPage(jobs[0].game, browser, {
        numEnvs: jobs.length,
        env: { observation: 'state', pixels: { width: 84, height: 84, grayscale: true }, deviceScaleFactor: jobs[0].record.deviceScaleFactor },
      }));
    for (let i = 0; i < jobs.length; i += n) pages.push(jobs.slice(i, i + n));
  }
  // One page per core at a time: a page is one renderer thread.
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < pages.length; k = next++) {
      for (const [i, r] of (await verifyPage(pages[k], browser, opts.signal)).entries()) results[pages[k][i].index] = r;
    }
  };
  await Promise.all(Array.from({ length: Math.min(pages.length, os.availableParallelism()) }, worker));
  return results.map((r) => r ?? STOPPED);
}

/** The episodes of one page, replayed together; a page fault replays them again on another page. */
async function verifyPage(jobs: Job[], browser: Browser, signal?: AbortSignal): Promise<VerificationResult[]> {
  let lastFault = '';
  for (let attempt = 0; attempt < PAGE_ATTEMPTS; attempt++) {
    if (signal?.aborted) return jobs.map(() => STOPPED);
    let page: BatchedPage | null = null;
    const stop = () => void page?.close();
    signal?.addEventListener('abort', stop, { once: true });
    const options = { deviceScaleFactor: jobs[0].record.deviceScaleFactor, stepTimeoutMs: STEP_TIMEOUT_MS, resetTimeoutMs: RESET_TIMEOUT_MS };
    const slots = jobs.map((_, slot) => slot);
    let replayed = false;
    try {
      page = await takePage(browser, jobs[0].game, options);
      if (signal?.aborted) return jobs.map(() => STOPPED);
      const results = await replayOnPage(page, jobs, signal);
      replayed = !signal?.aborted;
      return results;
    } catch (e) {
      if (signal?.aborted) return jobs.map(() => STOPPED);
      lastFault = e instanceof Error ? e.message.split('\n')[0] : String(e);
    } finally {
      signal?.removeEventListener('abort', stop);
      // Only a page that saw its replay through is kept for the next verification (idle-pages.ts).
      if (page && replayed) givePage(page, slots, options);
      else await page?.close();
    }
  }
  return jobs.map((): VerificationResult => ({ ok: false, reason: `step 0: the replay failed (${lastFault})`, firstMismatchStep: 0 }));
}

interface Replay {
  job: Job;
  slot: number;
  account: EpisodeAccount | null;
  failure: string | null;
  /** Replaying stops at the record's last action, or where the game ended. */
  open: boolean;
}

async function replayOnPage(page: BatchedPage, jobs: Job[], signal?: AbortSignal): Promise<VerificationResult[]> {
  const manifest = jobs[0].game.manifest;
  const replays: Replay[] = jobs.map((job, slot) => ({ job, slot, account: null, failure: null, open: true }));
  const loaded = await page.load(replays.map((r) => ({ slot: r.slot, seed: r.job.record.seed })));
  const first = await page.run(replays.map((r, k) => [r.slot, loaded[k].error ? [] : resetPlan(manifest, STATE_ONLY)] as const));
  replays.forEach((r, k) => {
    const reading = first[k].ok?.at(-1);
    const error = loaded[k].error ?? first[k].error;
    if (error !== undefined || !reading) {
      r.failure = error ?? 'no reading after the reset';
      r.open = false;
      return;
    }
    const rec = r.job.record;
    const identity = { gameId: manifest.id, gameVersion: manifest.version, verifierChecksum: r.job.game.verifierChecksum, runtimeVersion: RUNTIME_VERSION };
    try {
      r.account = new EpisodeAccount(
        {
          identity,
          seed: rec.seed,
          stepBudget: rec.stepBudget,
          msPerStep: rec.msPerStep,
          shaping: rec.shaping,
          ...(rec.stickyActions ? { sticky: rec.stickyActions } : {}),
        },
        reading.state,
        true,
      );
    } catch (e) {
      r.failure = e instanceof Error ? e.message : String(e);
      r.open = false;
    }
  });
  // A sticky record's actions are what its game received; replayed under its stream, a step
  // that repeats plays the previous action whatever the record says, so a record that claims
  // other actions there does not replay.
  const gui = replays.map((r) => stickyExecuted(r.job.record.actions, r.job.record.stickyActions, r.job.record.seed).map((a) => resolveAction(manifest, a)));
  for (let start = 0; ; ) {
    if (signal?.aborted) return jobs.map(() => STOPPED);
    const open = replays.filter((r) => r.open && start < r.job.record.actions.length);
    if (!open.length) break;
    const chunk = Math.max(8, Math.floor(STEPS_PER_CALL / open.length));
    const results = await page.run(
      open.map((r) => [r.slot, gui[r.slot].slice(start, start + chunk).map((a) => ({ action: a.gui, ms: r.job.record.msPerStep, obs: STATE_ONLY }))] as const),
    );
    open.forEach((r, k) => {
      const res = results[k];
      if (res.error !== undefined) {
        r.failure = res.error;
        r.open = false;
        return;
      }
      for (const [j, reading] of res.ok.entries()) {
        // The game ended before the actions ran out: the comparison says where.
        if (r.account!.done) break;
        try {
          r.account!.record(gui[r.slot][start + j].action, reading.state, reading.virtualTimeMs);
        } catch (e) {
          r.failure = e instanceof Error ? e.message : String(e);
          r.open = false;
          return;
        }
      }
      if (r.account!.done) r.open = false;
    });
    start += chunk;
  }
  const hashes = await page.frameHash(replays.map((r) => r.slot));
  return replays.map((r, k) => {
    const mismatch = compareReplay(r.job.record, r.account?.steps ?? [], r.failure);
    if (mismatch) return mismatch;
    const replayed = r.account!.episodeRecord({
      viewport: { width: manifest.canvas.width, height: manifest.canvas.height },
      deviceScaleFactor: r.job.record.deviceScaleFactor,
      browser: { name: 'chromium', version: page.browser.version() },
      finalFrameHash: hashes[k].ok ?? FRAME_HASH_UNAVAILABLE,
    });
    return compareTotals(r.job.record, replayed);
  });
}
