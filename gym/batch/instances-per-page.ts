import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { CatalogEntry } from '../catalog-schema';
import type { EnvOptions } from '../env/options';
import { resetPlan } from '../env/reset-plan';
import { ROOT } from '../paths';
import type { ObservationRequest, PageStepRequest } from '../runtime/protocol';
import { machineBusySeconds } from '../pool/processes';
import { BatchedPage } from './batched-page';

/**
 * How many instances of a game one page should hold, from a measurement: as many pages as the
 * machine has cores (at most MAX_PAGES) step 1, 2, 4, … instances per call side by side, as a
 * vector env's pages do, in alternating rounds. The game's size is the one with the least CPU
 * per instance-step, counted over the whole machine (renderers, browser process, GPU process,
 * Node); among sizes within `KNEE` of it, the smallest. Past it the call overhead is amortised
 * and more instances only lengthen each call, or cost more in the renderer (pixels most of all).
 *
 * Why CPU and not one page's rate: a call also costs the browser process (relaying it) and Node
 * (sending it, booking the answers). A page measured alone has a core to spare for that, so its
 * rate flattens early and a knee on it chooses too few instances, while a vector env of several
 * pages steps faster, with less CPU per step, at more (bench/README.md, Design measurements).
 * Rates side by side are noisy too (a page waiting on its round trip idles
 * its core, which another page of the vector env would use); without /proc/stat the size
 * with the best rate is taken.
 *
 * Results are kept per game version, observation kind and core count, in memory and in a small
 * file, so each machine measures a game once.
 */
export const CANDIDATES = [1, 2, 4, 8, 16] as const;
/** WebGL contexts per renderer are capped (Chromium drops the oldest past 16): WebGL games stay well below. */
const WEBGL_MAX = 8;
/** Sizes within this of the best (least CPU per step, or best rate) count as ties, and the smallest of them wins (more pages for the same envs). */
const KNEE = 0.97;
const ROUNDS = 3;
const WARMUP_CALLS = 5;
const WINDOW_MS = Number(process.env.ARCADE_BATCH_MEASURE_MS ?? 400);
/** Pages measured side by side: one per core, but at most this many (16 instances each are loaded). */
const MAX_PAGES = 4;

export interface InstancesPerPageMeasurement {
  gameId: string;
  gameVersion: string;
  observation: string;
  /** Instance-steps per second of `pages` pages stepped side by side, by instances per page. */
  rates: Record<string, number>;
  /** The machine's CPU milliseconds (every process) per instance-step, by instances per page; null where /proc/stat cannot be read. */
  cpuMsPerStep: Record<string, number> | null;
  pages: number;
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
  // "cpu": chosen by CPU per step with a page per core (an older measurement of one page alone is not reused).
  return `${game.manifest.id}@${game.manifest.version}/${px}/${os.availableParallelism()}cores/cpu`;
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

/** Measures `pages` pages (one per core, at most MAX_PAGES, by default) stepped side by side at each candidate size (a few seconds). */
export async function measureInstancesPerPage(
  game: CatalogEntry,
  browser: Browser,
  env: Pick<EnvOptions, 'observation' | 'pixels' | 'deviceScaleFactor'>,
  { windowMs = WINDOW_MS, pages: pageCount = Math.min(os.availableParallelism(), MAX_PAGES) }: { windowMs?: number; pages?: number } = {},
): Promise<InstancesPerPageMeasurement> {
  const obs = obsRequest(env);
  const sizes = CANDIDATES.filter((n) => game.manifest.renderer !== 'webgl' || n <= WEBGL_MAX);
  const max = Math.max(...sizes);
  const opened = await Promise.allSettled(
    Array.from({ length: pageCount }, () =>
      BatchedPage.open(browser, game, { deviceScaleFactor: env.deviceScaleFactor, stepTimeoutMs: 30_000, resetTimeoutMs: 60_000 }),
    ),
  );
  const pages = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  try {
    const failed = opened.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const slots = Array.from({ length: max }, (_, slot) => slot);
    await Promise.all(
      pages.map(async (page, p) => {
        const loaded = await page.load(slots.map((slot) => ({ slot, seed: p * max + slot })));
        const bad = loaded.find((r) => r.error);
        if (bad) throw new Error(`${game.manifest.id}: measuring instances per page: ${bad.error}`);
        await page.run(slots.map((slot) => [slot, resetPlan(game.manifest, obs)] as const));
      }),
    );
    const preset = game.manifest.preset.map((p) => p.action);
    const ms = game.manifest.msPerStep;
    let k = 0;
    // Episodes may end while measuring; a finished game still costs a step, which is all that is timed.
    const call = (page: BatchedPage, n: number) =>
      page.step(slots.slice(0, n).map((slot): [number, PageStepRequest] => [slot, { action: preset[(k++ * 7 + slot) % preset.length], ms, obs }]));
    const warm = async (n: number) =>
      Promise.all(
        pages.map(async (page) => {
          for (let i = 0; i < WARMUP_CALLS; i++) await call(page, n);
        }),
      );
    const stepped: Record<string, { steps: number; ms: number; busy: number | null }> = {};
    // Rounds in alternating order, so that a drift in the machine's load falls on every size alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const n of round % 2 ? [...sizes].reverse() : sizes) {
        await warm(n);
        let calls = 0;
        const busy0 = machineBusySeconds();
        const t0 = performance.now();
        await Promise.all(
          pages.map(async (page) => {
            while (performance.now() - t0 < windowMs) {
              await call(page, n);
              calls++;
            }
          }),
        );
        const ms = performance.now() - t0;
        const busy1 = machineBusySeconds();
        const m = (stepped[String(n)] ??= { steps: 0, ms: 0, busy: 0 });
        m.steps += n * calls;
        m.ms += ms;
        m.busy = busy0 === null || busy1 === null || m.busy === null ? null : m.busy + (busy1 - busy0);
      }
    }
    const rates = Object.fromEntries(sizes.map((n) => [String(n), Math.round(stepped[String(n)].steps / (stepped[String(n)].ms / 1000))]));
    const cpu = sizes.every((n) => stepped[String(n)].busy)
      ? Object.fromEntries(sizes.map((n) => [String(n), Math.round((1e6 * stepped[String(n)].busy!) / stepped[String(n)].steps) / 1000]))
      : null;
    // What the machine can do at each size: instance-steps per CPU second (a page waiting on its
    // round trip leaves its core to another page of the vector env), or else the rate measured.
    const capacity = (n: number) => (cpu ? 1 / cpu[String(n)] : rates[String(n)]);
    const top = Math.max(...sizes.map(capacity));
    const best = sizes.find((n) => capacity(n) >= KNEE * top) ?? max;
    return {
      gameId: game.manifest.id,
      gameVersion: game.manifest.version,
      observation: cacheKey(game, obs).split('/')[1],
      rates,
      cpuMsPerStep: cpu,
      pages: pages.length,
      best,
    };
  } finally {
    await Promise.all(pages.map((page) => page.close()));
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
