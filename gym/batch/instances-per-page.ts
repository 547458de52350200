import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { CatalogEntry } from '../catalog-schema';
import type { EnvOptions } from '../env/options';
import { resetPlan } from '../env/reset-plan';
import { ROOT } from '../paths';
import type { ObservationRequest, PageStepRequest } from '../runtime/protocol';
import { BatchedPage } from './batched-page';

/**
 * How many instances of a game one page should hold, from a measurement: a page steps 1, 2,
 * 4, … instances per call, and the smallest count whose rate (instance-steps/s) is within
 * `KNEE` of the best is the game's size. Past it the call overhead is already amortised and
 * more instances only lengthen each call. Results are kept per game version and observation
 * kind, in memory and in a small file, so each machine measures a game once.
 */
export const CANDIDATES = [1, 2, 4, 8, 16] as const;
/** WebGL contexts per renderer are capped (Chromium drops the oldest past 16): WebGL games stay well below. */
const WEBGL_MAX = 8;
const KNEE = 0.9;
const WARMUP_CALLS = 5;
const WINDOW_MS = Number(process.env.ARCADE_BATCH_MEASURE_MS ?? 400);

export interface InstancesPerPageMeasurement {
  gameId: string;
  gameVersion: string;
  observation: string;
  /** Instance-steps per second of one page, by instances per page. */
  rates: Record<string, number>;
  best: number;
}

const CACHE_FILE = process.env.ARCADE_BATCH_CACHE ?? path.join(ROOT, 'node_modules', '.cache', 'arcade-gym', 'instances-per-page.json');
const memory = new Map<string, Promise<InstancesPerPageMeasurement>>();

function obsRequest(env: Pick<EnvOptions, 'observation' | 'pixels'>): ObservationRequest {
  const kinds = Array.isArray(env.observation) ? env.observation : [env.observation];
  return { state: true, vector: kinds.includes('vector'), pixels: kinds.includes('pixels') ? env.pixels : null, frameHash: false };
}

function cacheKey(game: CatalogEntry, obs: ObservationRequest): string {
  const px = obs.pixels ? `pixels${obs.pixels.width}x${obs.pixels.height}${obs.pixels.grayscale ? 'g' : 'rgb'}` : obs.vector ? 'vector' : 'state';
  return `${game.manifest.id}@${game.manifest.version}/${px}/${os.availableParallelism()}cores`;
}

function readCache(): Record<string, InstancesPerPageMeasurement> {
  try {
    return JSON.parse(readFileSync(CACHE_FILE, 'utf8')) as Record<string, InstancesPerPageMeasurement>;
  } catch {
    return {};
  }
}

function writeCache(key: string, m: InstancesPerPageMeasurement): void {
  try {
    mkdirSync(path.dirname(CACHE_FILE), { recursive: true });
    writeFileSync(CACHE_FILE, `${JSON.stringify({ ...readCache(), [key]: m }, null, 2)}\n`);
  } catch {
    // A read-only checkout measures again next time; nothing else depends on the file.
  }
}

/** Measures one page at each candidate size (a few seconds). */
export async function measureInstancesPerPage(
  game: CatalogEntry,
  browser: Browser,
  env: Pick<EnvOptions, 'observation' | 'pixels' | 'deviceScaleFactor'>,
  windowMs = WINDOW_MS,
): Promise<InstancesPerPageMeasurement> {
  const obs = obsRequest(env);
  const sizes = CANDIDATES.filter((n) => game.manifest.renderer !== 'webgl' || n <= WEBGL_MAX);
  const max = Math.max(...sizes);
  const page = await BatchedPage.open(browser, game, { deviceScaleFactor: env.deviceScaleFactor, stepTimeoutMs: 30_000, resetTimeoutMs: 60_000 });
  try {
    const slots = Array.from({ length: max }, (_, slot) => slot);
    const loaded = await page.load(slots.map((slot) => ({ slot, seed: slot })));
    const bad = loaded.find((r) => r.error);
    if (bad) throw new Error(`${game.manifest.id}: measuring instances per page: ${bad.error}`);
    await page.run(slots.map((slot) => [slot, resetPlan(game.manifest, obs)] as const));
    const preset = game.manifest.preset.map((p) => p.action);
    const ms = game.manifest.msPerStep;
    let k = 0;
    // Episodes may end while measuring; a finished game still costs a step, which is all that is timed.
    const call = (n: number) =>
      page.step(slots.slice(0, n).map((slot): [number, PageStepRequest] => [slot, { action: preset[(k++ * 7 + slot) % preset.length], ms, obs }]));
    const rates: Record<string, number> = {};
    for (const n of sizes) {
      for (let i = 0; i < WARMUP_CALLS; i++) await call(n);
      let calls = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < windowMs) {
        await call(n);
        calls++;
      }
      rates[String(n)] = Math.round((n * calls) / ((performance.now() - t0) / 1000));
    }
    const top = Math.max(...Object.values(rates));
    const best = sizes.find((n) => rates[String(n)] >= KNEE * top) ?? max;
    return { gameId: game.manifest.id, gameVersion: game.manifest.version, observation: cacheKey(game, obs).split('/')[1], rates, best };
  } finally {
    await page.close();
  }
}

/**
 * The instances per page for `numEnvs` envs of `game`: the game's measured size (measured on
 * first use), but never so many that fewer pages than cores are left to run side by side.
 */
export async function measuredInstancesPerPage(
  game: CatalogEntry,
  browser: Browser,
  opts: { numEnvs: number; env: Pick<EnvOptions, 'observation' | 'pixels' | 'deviceScaleFactor'> },
): Promise<number> {
  const key = cacheKey(game, obsRequest(opts.env));
  let m = memory.get(key);
  if (!m) {
    const stored = readCache()[key];
    m = stored
      ? Promise.resolve(stored)
      : measureInstancesPerPage(game, browser, opts.env).then((r) => {
          writeCache(key, r);
          return r;
        });
    memory.set(key, m);
    m.catch(() => memory.delete(key));
  }
  const { best } = await m;
  return Math.max(1, Math.min(best, Math.ceil(opts.numEnvs / os.availableParallelism())));
}
