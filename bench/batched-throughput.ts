/**
 * bench:gym's batched part: several game instances per page, stepped by one call (gym/batch).
 * For Snake with state observations, Snake with 84×84 pixels and one WebGL game:
 *  - the instances-per-page measurement (a page per core side by side at 1, 2, 4, 8, 16 instances
 *    each: instance-steps/s and the machine's CPU per instance-step, which chooses the size);
 *  - the in-page ceiling of that game and observation on one core (a loop inside one frame, the
 *    aggregate's policy, a game over reloading the frame as the vector env's autoreset does);
 *  - the aggregate steps/s of a BatchedVectorEnv at a few sizes, and its ratio to the machine's
 *    limit: ratio_vs_core_ceiling = best aggregate ÷ (cores × in-page steps/s on one core);
 *  - the same loop on a page per core at once, and ratio_vs_all_cores_ceiling = best aggregate ÷
 *    its steps/s. Loops side by side are slower than one alone (a loop alone has the other cores
 *    for its renderer's helper threads, and the cores share caches and memory): this is the
 *    limit the machine gives the game's own work, with nothing of the driver's in it;
 *  - where a config asks for it (`resets`), what a reset costs a batch page: the machine's CPU per
 *    instance reset (a frame load and the reset plan, every process of the browser, and Node),
 *    and the aggregate of a random agent at the best size, autoresets included, with its mean
 *    episode length. The configs' own policies keep episodes long so that the ratios measure
 *    steps; an agent that starts training plays short episodes and pays these resets.
 */
import os from 'node:os';
import { getGame } from '../gym/catalog';
import { BatchedPage, BatchPageFault, measureInstancesPerPage, BatchedVectorEnv } from '../gym/batch';
import type { ObservationKind, VerifierState } from '../gym/schema';
import { resetPlan, type ObservationRequest } from '../gym/episode';
import { BrowserPool, cpuSecondsOf } from '../gym/pool';
import { SeededRandom } from '../gym/random';
import { smokeOr } from './smoke';

const WINDOW_MS = Number(process.env.BENCH_BATCH_WINDOW_MS ?? smokeOr(4_000, 300));
/** Rounds of resetting every instance of a page (the first is not counted: it creates the frames, with none to replace). */
const RESET_ROUNDS = Number(process.env.BENCH_RESET_ROUNDS ?? smokeOr(8, 2));
/** Alternating windows of the random agent, in the gym's browsers and in browsers with V8's default tiering. */
const RANDOM_ROUNDS = Number(process.env.BENCH_RANDOM_ROUNDS ?? smokeOr(3, 1));
const CEILING_STEPS = Number(process.env.BENCH_CEILING_STEPS ?? smokeOr(5_000, 200));
const CEILING_WALL_MS = smokeOr(30_000, 2_000);
const MAX_STEPS = 1_000_000;

export interface BatchedConfig {
  label: string;
  game: string;
  observation: ObservationKind[];
  /** Keeps episodes long (bench:gym's Snake cycle); random actions otherwise. */
  policy?: (state: VerifierState) => number;
  /** Also measure what resets cost (a reset's CPU, and a random agent's aggregate with its autoresets). */
  resets?: boolean;
}

export interface ResetFigures {
  /** The machine's CPU ms per instance reset: the browser's processes and Node together. */
  cpuMs: number;
  /** Node's share of it. */
  nodeCpuMs: number;
  /** Wall ms per instance reset, a page's instances reset together (a load mostly waits on the browser process). */
  wallMs: number;
  /** cpuMs and nodeCpuMs for the same host page in a Playwright context (measured in alternate rounds): what the gym's own page saves. */
  playwrightPageCpuMs: number;
  playwrightPageNodeCpuMs: number;
  /** A random agent's aggregate steps/s at the best size, autoresets included. */
  randomStepsPerS: number;
  /** Its mean episode length in steps. */
  randomEpisodeSteps: number;
  /** randomStepsPerS in browsers with V8's default tiering (windows alternating with those of randomStepsPerS). */
  randomStepsPerSDefaultJit: number;
}

export interface BatchedFigures {
  label: string;
  instancesPerPage: number;
  pageRates: Record<string, number>;
  /** The machine's CPU ms per instance-step in that measurement (what chose the size). */
  pageCpuMs: Record<string, number> | null;
  ceiling: number;
  /** The in-page loop on a page per core at once: the sum of their steps/s. */
  ceilingAllCores: number;
  /** Each page's steps/s in that run. */
  ceilingAllCoresByPage: number[];
  /** The loop stepping a batch page's instances in turn (instancesPerPage of them), a page per core at once: the sum of their steps/s. */
  ceilingRotating: number;
  byEnvs: Record<string, number>;
  best: number;
  /** Node's CPU ms per instance-step at the best size (the env, the pool and the bench's policy). */
  nodeCpuMsPerStep: number;
  ratio: number;
  ratioAllCores: number;
  /** best ÷ ceilingRotating: what the driver (calls, the browser process, Node) leaves of the game's work spread over as many documents. */
  ratioRotating: number;
  resets: ResetFigures | null;
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

function obsRequest(kinds: ObservationKind[]): ObservationRequest {
  return {
    state: true,
    vector: kinds.includes('vector'),
    pixels: kinds.includes('pixels') ? { width: 84, height: 84, grayscale: true } : null,
    frameHash: false,
  };
}

/** Loads each listed instance with its seed and runs the game's reset plan there; the states the plans end in. */
async function loadAndReset(page: BatchedPage, c: BatchedConfig, items: { slot: number; seed: number }[]): Promise<VerifierState[]> {
  const game = getGame(c.game);
  const obs = obsRequest(c.observation);
  const loaded = await page.load(items);
  const reset = await page.run(items.map(({ slot }) => [slot, resetPlan(game.manifest, obs)] as const));
  const failed = [...loaded, ...reset].find((r) => r.error);
  if (failed) throw new Error(`bench: ${c.label} did not reset: ${failed.error}`);
  return reset.map((r) => r.ok!.at(-1)!.state);
}

/**
 * The step function looped inside the page, with the aggregate's policy: no round trips but one
 * per episode. `instances` frames are stepped in turn, one step each (one frame: the in-page
 * ceiling; as many as a batch page holds: the same work spread over as many game documents, with
 * nothing of the driver's in it). A game over ends the loop and that instance is reloaded with the
 * next seed, as the vector env's autoreset does, so only live episodes are stepped (a game-over
 * screen that stays cheap to step, or an Enter that does not restart the game, inflated the
 * ceiling). The loop ends with a frame read of every instance, which waits for the GPU work queued
 * by the steps. The reloads are not timed: a load mostly waits (files, a WebGL context), which the
 * aggregate's other pages fill, so the ceiling is the steps/s of the game's own work on one core,
 * and resets count against the aggregate only.
 */
async function ceiling(pool: BrowserPool, c: BatchedConfig, firstSeed = 1, instances = 1): Promise<number> {
  const game = getGame(c.game);
  const slot = await pool.lease();
  const open = async () => BatchedPage.open(await slot.healthyBrowser(), game, { deviceScaleFactor: 1, stepTimeoutMs: 120_000, resetTimeoutMs: 20_000 });
  let page = await open();
  const started = performance.now();
  try {
    const obs = obsRequest(c.observation);
    const preset = game.manifest.preset.map((p) => p.action);
    // The policy the aggregate plays, run in the page (it is self-contained), else random actions.
    const policy = c.policy ? c.policy.toString() : null;
    let seed = firstSeed;
    const states: VerifierState[] = [];
    /** Loads the listed instances with the next seeds and runs their reset plans. */
    const reset = async (slots: number[]): Promise<void> => {
      // A page that faults while reloading (as the vector env would, it is rebuilt) is replaced by a fresh one, once.
      for (let attempt = 0; ; attempt++) {
        try {
          const reached = await loadAndReset(
            page,
            c,
            slots.map((s) => ({ slot: s, seed: seed++ })),
          );
          reached.forEach((state, i) => (states[slots[i]] = state));
          return;
        } catch (e) {
          if (!(e instanceof BatchPageFault) || attempt > 0) throw e;
          process.stderr.write(`${c.label}: ceiling page faulted on a reload (${e.message}); a fresh page\n`);
          await page.close();
          page = await open();
          // A fresh page holds none of the instances: all of them start again.
          slots = Array.from({ length: instances }, (_, i) => i);
        }
      }
    };
    let rng = 1;
    let steps = 0;
    await reset(Array.from({ length: instances }, (_, i) => i));
    let seconds = 0;
    const total = CEILING_STEPS * instances;
    // Short episodes reload often: the loop also stops after CEILING_WALL_MS of wall time (reloads included).
    while (steps < total && (steps === 0 || performance.now() - started < CEILING_WALL_MS)) {
      const t = performance.now();
      const r = await page.evaluateInHost(
        ({ preset, ms, n, obs, rng, policy, states }) => {
          // No named helper functions in here: tsx would wrap them in a __name() the page lacks.
          const batch = (window as unknown as { __arcadeBatch: { runtime(slot: number): typeof globalThis.__arcade } }).__arcadeBatch;
          const apis = states.map((_, slot) => batch.runtime(slot));
          const choose = policy ? ((0, eval)(`(${policy})`) as (s: unknown) => number) : null;
          let s = rng;
          const last = states.slice();
          let i = 0;
          let over = -1;
          while (i < n && over < 0) {
            for (let j = 0; j < apis.length && over < 0; j++) {
              s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
              const k = choose ? choose(last[j]) : Math.floor((s / 4294967296) * preset.length);
              const r = apis[j].step({ action: preset[k], ms, obs });
              last[j] = r.state;
              if (r.state.gameOver === true) over = j;
              i++;
            }
          }
          // Reading the frames waits for the drawing queued so far: a WebGL game's GPU work (in the
          // GPU process, SwiftShader here) is then inside the timed loop, as a vector env's pays it.
          for (const api of apis) api.frameHash();
          return { steps: i, rng: s, over, states: last };
        },
        { preset, ms: game.manifest.msPerStep, n: total - steps, obs, rng, policy, states },
      );
      seconds += (performance.now() - t) / 1000;
      steps += r.steps;
      rng = r.rng;
      r.states.forEach((state, j) => (states[j] = state));
      if (r.over < 0) continue;
      try {
        await reset([r.over]);
      } catch (e) {
        // Reported, and the ceiling is what was stepped so far (a reload that keeps hanging is a finding of its own).
        if (!(e instanceof BatchPageFault)) throw e;
        process.stderr.write(`${c.label}: the ceiling stops after ${steps} steps, reloads keep failing (${e.message})\n`);
        break;
      }
    }
    return steps / seconds;
  } finally {
    await page.close();
    slot.release();
  }
}

/**
 * Aggregate steps/s of a BatchedVectorEnv of `numEnvs` at `perPage` instances per page, this
 * process's CPU ms per instance-step, and the episodes that ended in the window. `policy` null
 * plays random actions.
 */
async function aggregate(
  pool: BrowserPool,
  c: BatchedConfig,
  numEnvs: number,
  perPage: number,
  policy = c.policy ?? null,
): Promise<{ rate: number; nodeCpuMsPerStep: number; steps: number; episodes: number }> {
  const game = getGame(c.game);
  const v = new BatchedVectorEnv({ game: c.game, numEnvs, seed: 100, observation: c.observation, maxSteps: MAX_STEPS, instancesPerPage: perPage, pool });
  const rng = new SeededRandom(7);
  const n = game.manifest.preset.length;
  try {
    let { observations } = await v.reset();
    const act = () => observations.map((o) => (policy && o.state ? policy(o.state) : rng.nextUint32() % n));
    for (let i = 0; i < 10; i++) observations = (await v.step(act())).observations;
    let steps = 0;
    let episodes = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    while (performance.now() - t0 < WINDOW_MS) {
      const r = await v.step(act());
      observations = r.observations;
      steps += numEnvs;
      for (let i = 0; i < numEnvs; i++) if (r.terminated[i] || r.truncated[i]) episodes++;
    }
    const rate = steps / ((performance.now() - t0) / 1000);
    const cpu = process.cpuUsage(cpu0);
    return { rate, nodeCpuMsPerStep: (cpu.user + cpu.system) / 1000 / steps, steps, episodes };
  } finally {
    await v.close();
  }
}

/**
 * A random agent's aggregate (short episodes, autoresets included) in the pool's browsers and in
 * browsers launched with V8's default tiering (gym/browser/launch.ts V8_TIERING_ARG), windows
 * alternating, RANDOM_ROUNDS each: what the gym's Maglev threshold does for short episodes.
 */
async function randomWithAndWithoutTiering(pool: BrowserPool, c: BatchedConfig, numEnvs: number, perPage: number) {
  // Chromium takes the last --js-flags: an empty one leaves V8's defaults.
  const defaultJitPool = new BrowserPool({ maxBrowsers: 2, pagesPerBrowser: 8, idleBrowserMs: 600_000, healthIntervalMs: 0, extraArgs: ['--js-flags='] });
  const sum = () => ({ rate: 0, steps: 0, episodes: 0 });
  const gym = sum();
  const defaultJit = sum();
  try {
    const runs = [
      { browsers: pool, into: gym },
      { browsers: defaultJitPool, into: defaultJit },
    ];
    for (let r = 0; r < RANDOM_ROUNDS; r++) {
      for (const { browsers, into } of r % 2 ? [...runs].reverse() : runs) {
        const a = await aggregate(browsers, c, numEnvs, perPage, null);
        into.rate += a.rate / RANDOM_ROUNDS;
        into.steps += a.steps;
        into.episodes += a.episodes;
      }
    }
  } finally {
    await defaultJitPool.close();
  }
  return { gym, defaultJit };
}

type ResetCost = Pick<ResetFigures, 'cpuMs' | 'nodeCpuMs' | 'wallMs'>;

/**
 * What resetting an instance of a batch page costs, as the vector env's autoreset does it: a
 * frame load with the next seed, then the game's reset plan. Every instance of one page is reset
 * per round, the machine otherwise idle; CPU is counted in all of the pool's browser processes
 * (the browser process serves the navigation, the renderer builds the document) and in Node.
 * Rounds alternate between the gym's own page (gym/browser/own-page.ts) and the same host page in
 * a Playwright context, which Playwright follows (its utility world, its per-frame events).
 */
async function resetCost(pool: BrowserPool, c: BatchedConfig, perPage: number): Promise<{ own: ResetCost; playwright: ResetCost }> {
  const slot = await pool.lease();
  const browser = await slot.healthyBrowser();
  const options = { deviceScaleFactor: 1, stepTimeoutMs: 60_000, resetTimeoutMs: 20_000 };
  const kinds = ['own', 'playwright'] as const;
  const slots = Array.from({ length: perPage }, (_, i) => i);
  const sums = kinds.map(() => ({ browserCpu: 0, nodeCpu: 0, wall: 0 }));
  const pages: BatchedPage[] = [];
  let seed = 1;
  try {
    for (const kind of kinds) pages.push(await BatchedPage.open(browser, getGame(c.game), options, kind));
    for (let round = 0; round < RESET_ROUNDS * kinds.length; round++) {
      const k = round % kinds.length;
      const b0 = cpuSecondsOf(pool.processTree());
      const n0 = process.cpuUsage();
      const t0 = performance.now();
      await loadAndReset(
        pages[k],
        c,
        slots.map((s) => ({ slot: s, seed: seed++ })),
      );
      if (round < kinds.length) continue;
      sums[k].wall += performance.now() - t0;
      const n = process.cpuUsage(n0);
      sums[k].nodeCpu += (n.user + n.system) / 1000;
      sums[k].browserCpu += (cpuSecondsOf(pool.processTree()) - b0) * 1000;
    }
  } finally {
    await Promise.all(pages.map((p) => p.close()));
    slot.release();
  }
  const resets = (RESET_ROUNDS - 1) * perPage;
  const [own, playwright] = sums.map((t) => ({ cpuMs: (t.browserCpu + t.nodeCpu) / resets, nodeCpuMs: t.nodeCpu / resets, wallMs: t.wall / resets }));
  return { own, playwright };
}

export async function measureBatched(pool: BrowserPool, configs: BatchedConfig[], log: (line: string) => void): Promise<BatchedFigures[]> {
  const cores = os.availableParallelism();
  const out: BatchedFigures[] = [];
  for (const c of configs) {
    const game = getGame(c.game);
    const slot = await pool.lease();
    const m = await measureInstancesPerPage(game, await slot.healthyBrowser(), {
      observation: c.observation,
      pixels: { width: 84, height: 84, grayscale: true },
      deviceScaleFactor: 1,
    });
    slot.release();
    log(
      `${c.label}: instances per page ${m.best} (${m.pages} pages side by side: rates ${JSON.stringify(m.rates)}, CPU ms per step ${JSON.stringify(m.cpuMsPerStep)})`,
    );
    const top = await ceiling(pool, c);
    // Every page loops its own seeds (1, 1001, ...), so that no two play the same episode.
    const allCores = await Promise.all(Array.from({ length: cores }, (_, k) => ceiling(pool, c, 1 + 1000 * k)));
    const topAllCores = allCores.reduce((a, r) => a + r, 0);
    // The same, each page stepping as many instances in turn as a batch page holds.
    const rotating = await Promise.all(Array.from({ length: cores }, (_, k) => ceiling(pool, c, 1 + 1000 * k, m.best)));
    const topRotating = rotating.reduce((a, r) => a + r, 0);
    // One page per core, then two (one steps while Node handles the other's answer).
    const byEnvs: Record<string, number> = {};
    const nodeCpu: Record<string, number> = {};
    for (const pagesPerCore of [1, 2]) {
      const numEnvs = cores * pagesPerCore * m.best;
      const a = await aggregate(pool, c, numEnvs, m.best);
      byEnvs[String(numEnvs)] = Math.round(a.rate);
      nodeCpu[String(numEnvs)] = a.nodeCpuMsPerStep;
    }
    const best = Math.max(...Object.values(byEnvs));
    const bestEnvs = Object.keys(byEnvs).find((k) => byEnvs[k] === best)!;
    let resets: ResetFigures | null = null;
    if (c.resets) {
      const cost = await resetCost(pool, c, m.best);
      const random = await randomWithAndWithoutTiering(pool, c, Number(bestEnvs), m.best);
      resets = {
        cpuMs: round(cost.own.cpuMs, 1),
        nodeCpuMs: round(cost.own.nodeCpuMs, 1),
        wallMs: round(cost.own.wallMs, 1),
        playwrightPageCpuMs: round(cost.playwright.cpuMs, 1),
        playwrightPageNodeCpuMs: round(cost.playwright.nodeCpuMs, 1),
        randomStepsPerS: Math.round(random.gym.rate),
        randomEpisodeSteps: round(random.gym.steps / Math.max(1, random.gym.episodes), 1),
        randomStepsPerSDefaultJit: Math.round(random.defaultJit.rate),
      };
      log(
        `${c.label}: a reset costs ${resets.cpuMs} ms of CPU (Node ${resets.nodeCpuMs}), ${resets.wallMs} ms of wall per instance (${m.best} at once), against ${resets.playwrightPageCpuMs} (Node ${resets.playwrightPageNodeCpuMs}) in a page Playwright follows; a random agent, ${bestEnvs} envs: ${resets.randomStepsPerS} steps/s (${resets.randomStepsPerSDefaultJit} with V8's default tiering), episodes of ${resets.randomEpisodeSteps} steps`,
      );
    }
    const figures = {
      label: c.label,
      instancesPerPage: m.best,
      pageRates: m.rates,
      pageCpuMs: m.cpuMsPerStep,
      ceiling: Math.round(top),
      ceilingAllCores: Math.round(topAllCores),
      ceilingAllCoresByPage: allCores.map((r) => Math.round(r)),
      ceilingRotating: Math.round(topRotating),
      byEnvs,
      best,
      nodeCpuMsPerStep: round(nodeCpu[bestEnvs], 4),
      ratio: round(best / (cores * top)),
      ratioAllCores: round(best / topAllCores),
      ratioRotating: round(best / topRotating),
      resets,
    };
    log(
      `${c.label}: in-page ceiling ${figures.ceiling} steps/s on one core, ${figures.ceilingAllCores} on ${cores} at once (${JSON.stringify(figures.ceilingAllCoresByPage)}), ${figures.ceilingRotating} stepping ${m.best} instances in turn on each; aggregate ${JSON.stringify(byEnvs)} steps/s by envs; ratio vs ${cores} × ceiling ${figures.ratio}, vs all cores at once ${figures.ratioAllCores}, vs ${m.best} instances in turn ${figures.ratioRotating}`,
    );
    out.push(figures);
  }
  return out;
}
