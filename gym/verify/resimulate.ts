import type { Browser } from 'playwright-core';
import { getGame } from '../catalog';
import { makeEnv } from '../env/env';
import { stickyExecuted } from '../env/sticky-actions';
import { resolveAction } from '../env/resolve-action';
import { ArcadeGymError } from '../errors';
import { RUNTIME_VERSION } from '../runtime/protocol';
import { canonicalJson, EpisodeRecord, type StepRecord } from '../schema/records';
import type { CatalogEntry } from '../catalog-schema';

export type VerificationResult =
  | { ok: true; replayed: EpisodeRecord }
  | { ok: false; reason: string /** First step whose replay differs from the record, if it got that far. */; firstMismatchStep?: number };

export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (canonicalJson(a) === canonicalJson(b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
  }
  return `${path || 'value'}: recorded ${JSON.stringify(a)?.slice(0, 120)}, replay gives ${JSON.stringify(b)?.slice(0, 120)}`;
}

/**
 * Re-simulates an episode from its seed and actions in a headless browser and compares every
 * step with the record. Only an exact match counts: the record's claims (scores, rewards,
 * termination) must be what the game really does.
 */
export async function verifyEpisode(input: unknown, browser?: Browser): Promise<VerificationResult> {
  const checked = precheck(input);
  if (!checked.ok) return checked.result;
  const { record } = checked;
  const env = makeEnv(
    {
      game: record.gameId,
      seed: record.seed,
      observation: 'state',
      maxSteps: record.stepBudget,
      msPerStep: record.msPerStep,
      deviceScaleFactor: record.deviceScaleFactor,
      shaping: record.shaping,
      ...(record.stickyActions ? { stickyActions: record.stickyActions.p, stickySeed: record.stickyActions.seed } : {}),
    },
    browser,
  );
  try {
    // The whole action list replays in a few page calls (restoreEpisode batches them); the
    // steps it records are then held against the record's, one by one.
    let failure: string | null = null;
    try {
      // Under sticky actions a repeating step plays the previous action whatever the record says.
      await env.restoreEpisode(record.seed, stickyExecuted(record.actions, record.stickyActions, record.seed));
    } catch (e) {
      // EPISODE_ENDED: the game ended before the actions ran out; the comparison below says where.
      if (!(e instanceof ArcadeGymError && e.code === 'EPISODE_ENDED')) failure = e instanceof Error ? e.message : String(e);
    }
    const mismatch = compareReplay(record, env.recordedSteps, failure);
    if (mismatch) return mismatch;
    return compareTotals(record, await env.currentEpisodeRecord());
  } finally {
    await env.close();
  }
}

/** The checks that need no browser: the record's shape, its game build, its action list. */
export function precheck(input: unknown): { ok: true; record: EpisodeRecord; game: CatalogEntry } | { ok: false; result: VerificationResult } {
  const fail = (r: { reason: string; firstMismatchStep?: number }) => ({ ok: false as const, result: { ok: false as const, ...r } });
  const parsed = EpisodeRecord.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail({ reason: `malformed episode record at "${issue.path.join('.')}": ${issue.message}` });
  }
  const record = parsed.data;
  let game: CatalogEntry;
  try {
    game = getGame(record.gameId);
  } catch (e) {
    return fail({ reason: e instanceof ArcadeGymError ? e.message : String(e) });
  }
  if (record.gameVersion !== game.manifest.version)
    return fail({ reason: `game version ${record.gameVersion} does not match the server's ${record.gameId} ${game.manifest.version}` });
  if (record.verifierChecksum !== game.verifierChecksum)
    return fail({ reason: `verifier checksum ${record.verifierChecksum.slice(0, 12)}… does not match the server's verifier for ${record.gameId}` });
  if (record.runtimeVersion !== RUNTIME_VERSION)
    return fail({ reason: `runtime version ${record.runtimeVersion} does not match the server's ${RUNTIME_VERSION}` });
  if (record.actions.length !== record.steps.length)
    return fail({ reason: `the record has ${record.actions.length} actions but ${record.steps.length} steps` });
  if (record.actions.length > record.stepBudget)
    return fail({ reason: `the record has ${record.actions.length} actions, more than its step budget ${record.stepBudget}` });
  const bad = record.steps.findIndex((s, i) => s.step !== i || canonicalJson(s.action) !== canonicalJson(record.actions[i]));
  if (bad >= 0) return fail({ reason: `step ${bad} does not carry action ${bad} of the action list`, firstMismatchStep: bad });
  for (const [i, action] of record.actions.entries()) {
    try {
      resolveAction(game.manifest, action);
    } catch (e) {
      return fail({ reason: `step ${i}: ${e instanceof Error ? e.message : e}`, firstMismatchStep: i });
    }
  }
  return { ok: true, record, game };
}

/**
 * Holds a replay against the record it came from: every step, then the totals. `failure` is
 * why the replay stopped early, if it did.
 */
export function compareReplay(record: EpisodeRecord, steps: readonly StepRecord[], failure: string | null): VerificationResult | null {
  for (let i = 0; i < steps.length; i++) {
    const diff = firstDifference(record.steps[i], steps[i]);
    if (diff) return { ok: false, reason: `step ${i} differs: ${diff}`, firstMismatchStep: i };
  }
  if (failure !== null) return { ok: false, reason: `step ${steps.length}: the replay failed (${failure})`, firstMismatchStep: steps.length };
  if (steps.length < record.actions.length) {
    return {
      ok: false,
      reason: `the episode ends at step ${steps.length - 1} in the replay, but the record goes on to ${record.actions.length} steps`,
      firstMismatchStep: steps.length,
    };
  }
  return null;
}

/** The totals check, once the replay's record is built. */
export function compareTotals(record: EpisodeRecord, replayed: EpisodeRecord): VerificationResult {
  const totalsDiff = firstDifference(record.totals, replayed.totals);
  if (totalsDiff) return { ok: false, reason: `totals differ: ${totalsDiff}` };
  return { ok: true, replayed };
}
