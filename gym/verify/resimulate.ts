import type { Browser } from 'playwright-core';
import { getGame } from '../catalog';
import { makeEnv } from '../env/env';
import { resolveAction } from '../env/resolve-action';
import { ArcadeGymError } from '../errors';
import { RUNTIME_VERSION } from '../runtime/protocol';
import { canonicalJson, EpisodeRecord } from '../schema/records';

export type VerificationResult =
  | { ok: true; replayed: EpisodeRecord }
  | { ok: false; reason: string; /** First step whose replay differs from the record, if it got that far. */ firstMismatchStep?: number };

function firstDifference(a: unknown, b: unknown, path = ''): string | null {
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
  const parsed = EpisodeRecord.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `malformed episode record at "${issue.path.join('.')}": ${issue.message}` };
  }
  const record = parsed.data;
  let game;
  try {
    game = getGame(record.gameId);
  } catch (e) {
    return { ok: false, reason: e instanceof ArcadeGymError ? e.message : String(e) };
  }
  if (record.gameVersion !== game.manifest.version) return { ok: false, reason: `game version ${record.gameVersion} does not match the server's ${record.gameId} ${game.manifest.version}` };
  if (record.verifierChecksum !== game.verifierChecksum) return { ok: false, reason: `verifier checksum ${record.verifierChecksum.slice(0, 12)}… does not match the server's verifier for ${record.gameId}` };
  if (record.runtimeVersion !== RUNTIME_VERSION) return { ok: false, reason: `runtime version ${record.runtimeVersion} does not match the server's ${RUNTIME_VERSION}` };
  if (record.actions.length !== record.steps.length) return { ok: false, reason: `the record has ${record.actions.length} actions but ${record.steps.length} steps` };
  if (record.actions.length > record.stepBudget) return { ok: false, reason: `the record has ${record.actions.length} actions, more than its step budget ${record.stepBudget}` };
  const bad = record.steps.findIndex((s, i) => s.step !== i || canonicalJson(s.action) !== canonicalJson(record.actions[i]));
  if (bad >= 0) return { ok: false, reason: `step ${bad} does not carry action ${bad} of the action list`, firstMismatchStep: bad };
  for (const [i, action] of record.actions.entries()) {
    try {
      resolveAction(game.manifest, action);
    } catch (e) {
      return { ok: false, reason: `step ${i}: ${e instanceof Error ? e.message : e}`, firstMismatchStep: i };
    }
  }

  const env = makeEnv(
    {
      game: record.gameId,
      seed: record.seed,
      observation: 'state',
      maxSteps: record.stepBudget,
      msPerStep: record.msPerStep,
      deviceScaleFactor: record.deviceScaleFactor,
      shaping: record.shaping,
    },
    browser,
  );
  try {
    // The whole action list replays in a few page calls (restoreEpisode batches them); the
    // steps it records are then held against the record's, one by one.
    let failure: string | null = null;
    try {
      await env.restoreEpisode(record.seed, record.actions);
    } catch (e) {
      // EPISODE_ENDED: the game ended before the actions ran out; the comparison below says where.
      if (!(e instanceof ArcadeGymError && e.code === 'EPISODE_ENDED')) failure = e instanceof Error ? e.message : String(e);
    }
    const steps = env.recordedSteps;
    for (let i = 0; i < steps.length; i++) {
      const diff = firstDifference(record.steps[i], steps[i]);
      if (diff) return { ok: false, reason: `step ${i} differs: ${diff}`, firstMismatchStep: i };
    }
    if (failure !== null) return { ok: false, reason: `step ${steps.length}: the replay failed (${failure})`, firstMismatchStep: steps.length };
    if (steps.length < record.actions.length) {
      return { ok: false, reason: `the episode ends at step ${steps.length - 1} in the replay, but the record goes on to ${record.actions.length} steps`, firstMismatchStep: steps.length };
    }
    const replayed = await env.currentEpisodeRecord();
    const totalsDiff = firstDifference(record.totals, replayed.totals);
    if (totalsDiff) return { ok: false, reason: `totals differ: ${totalsDiff}` };
    return { ok: true, replayed };
  } finally {
    await env.close();
  }
}
