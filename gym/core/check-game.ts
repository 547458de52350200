import type { Browser } from 'playwright-core';
import { getGame } from '../catalog';
import { makeEnv, type ArcadeEnv } from '../env/env';
import type { Observation } from '../env/observation';
import type { ObservationKind } from '../env/options';
import { canonicalJson, type EpisodeRecord } from '../schema/records';
import { SeededRandom } from '../random/seeded-random';
import { checkEnv, type CheckReport, type CheckResult } from './check-env';

export interface CheckGameOptions {
  /** Steps per test episode (the env's step budget is set to this). */
  steps?: number;
  seeds?: readonly [number, number];
  /** A browser to use; by default the shared one is started. */
  browser?: Browser;
}

/** Why an observation's verifier state is not one (score a finite number, gameOver a boolean), or null. */
function stateProblem(observation: unknown, info: unknown): string | null {
  const state = (observation as Observation | undefined)?.state ?? (info as { state?: unknown } | undefined)?.state;
  if (!state || typeof state !== 'object') return 'no verifier state';
  const s = state as { score?: unknown; gameOver?: unknown };
  if (typeof s.score !== 'number' || !Number.isFinite(s.score)) return `state.score is ${JSON.stringify(s.score)}, not a finite number`;
  if (typeof s.gameOver !== 'boolean') return `state.gameOver is ${JSON.stringify(s.gameOver)}, not a boolean`;
  return null;
}

/** One episode of preset actions drawn from `seed`, as its record. */
async function recordOf(env: ArcadeEnv, seed: number, steps: number): Promise<EpisodeRecord> {
  const random = new SeededRandom(seed ^ 0xc4ec);
  const n = env.manifest.preset.length;
  await env.reset({ seed });
  for (let i = 0; i < steps; i++) {
    // A GUI action among the preset ones: both kinds go into the record.
    const r = await env.step(i === 1 ? { type: 'wait' } : Math.floor(random.next() * n));
    if (r.info.episode) return r.info.episode;
  }
  return env.currentEpisodeRecord();
}

/**
 * The contract every game must meet (like Gymnasium's env checker, for one catalog game):
 * checkEnv on the game's env (spaces, result shapes, determinism, reset isolation), a
 * verifier state with a numeric score and a boolean gameOver on every reading, byte-identical
 * episode records from a second env with the same seed and actions, and, for canvas games,
 * pixel observations that are not one flat colour. Run over the whole catalog by
 * gym/core/check-game.test.ts, and by `arcade-gym add-game` on a third-party game.
 */
export async function checkGame(id: string, options: CheckGameOptions = {}): Promise<CheckReport> {
  const game = getGame(id);
  const steps = options.steps ?? 20;
  const seeds = options.seeds ?? [11, 12];
  const canvas = game.manifest.renderer !== 'dom';
  const observation: ObservationKind[] = canvas ? ['state', 'vector', 'pixels'] : ['state', 'vector'];
  const make = () => makeEnv({ game: id, seed: seeds[0], observation, maxSteps: steps }, options.browser);
  const env = make();
  const other = make();
  const results: CheckResult[] = [];
  try {
    let constantFrames = 0;
    let frames = 0;
    const report = await checkEnv(env, {
      steps,
      seeds,
      inspect: (_kind, r) => {
        const px = (r.observation as Observation).pixels;
        if (px) {
          frames++;
          if (new Set(px.data).size < 2) constantFrames++;
        }
        return stateProblem(r.observation, r.info);
      },
    });
    results.push(...report.results);
    if (canvas) {
      results.push({
        name: 'pixels are not one flat colour',
        status: frames > 0 && constantFrames < frames ? 'pass' : 'fail',
        message: frames === 0 ? 'no pixel observations came back' : `${constantFrames} of ${frames} frames were a single colour`,
      });
    }
    if (report.results.some((r) => r.name === 'reset and step run' && r.status === 'fail')) return { ok: false, results };
    const [a, b] = await Promise.all([recordOf(env, seeds[0], steps), recordOf(other, seeds[0], steps)]);
    const same = canonicalJson(a) === canonicalJson(b);
    results.push({
      name: 'byte-identical episode records from two envs with the same seed and actions',
      status: same ? 'pass' : 'fail',
      message: same ? 'ok' : firstRecordDifference(a, b),
    });
  } catch (e) {
    results.push({ name: 'the game runs in the gym', status: 'fail', message: e instanceof Error ? e.message : String(e) });
  } finally {
    await Promise.all([env.close(), other.close()]);
  }
  return { ok: results.every((r) => r.status !== 'fail'), results };
}

function firstRecordDifference(a: EpisodeRecord, b: EpisodeRecord): string {
  const n = Math.max(a.steps.length, b.steps.length);
  for (let i = 0; i < n; i++) if (canonicalJson(a.steps[i]) !== canonicalJson(b.steps[i])) return `the records differ at step ${i + 1}`;
  return `the records differ (${canonicalJson(a.totals) === canonicalJson(b.totals) ? 'final frame' : 'totals'})`;
}
