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
 *    limit the machine gives the game's own work, with nothing of the driver's in it.
 */
import os from 'node:os';
import { getGame } from '../gym/catalog';
import { BatchedPage, BatchPageFault, measureInstancesPerPage, BatchedVectorEnv } from '../gym/batch';
import type { ObservationKind, VerifierState } from '../gym/schema';
import { resetPlan, type ObservationRequest } from '../gym/episode';
import type { BrowserPool } from '../gym/pool';
import { SeededRandom } from '../gym/random';

const WINDOW_MS = Number(process.env.BENCH_BATCH_WINDOW_MS ?? 4_000);
const CEILING_STEPS = Number(process.env.BENCH_CEILING_STEPS ?? 5_000);
const CEILING_WALL_MS = 30_000;
const MAX_STEPS = 1_000_000;

export interface BatchedConfig {
  label: string;
  game: string;
  observation: ObservationKind[];
  /** Keeps episodes long (bench:gym's Snake cycle); random actions otherwise. */
  policy?: (state: VerifierState) => number;
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
  byEnvs: Record<string, number>;
  best: number;
  /** Node's CPU ms per instance-step at the best size (the env, the pool and the bench's policy). */
  nodeCpuMsPerStep: number;
  ratio: number;
  ratioAllCores: number;
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

/**
 * The step function looped inside one instance's frame, with the aggregate's policy: no round
 * trips but one per episode. A game over ends the loop and the instance is reloaded with the next
 * seed, as the vector env's autoreset does, so only live episodes are stepped (a game-over screen
 * that stays cheap to step, or an Enter that does not restart the game, inflated the ceiling). The
 * loop ends with a frame read, which waits for the GPU work queued by the steps. The
 * reloads are not timed: a load mostly waits (files, a WebGL context), which the aggregate's other
 * pages fill, so the ceiling is the steps/s of the game's own work on one core, and resets count
 * against the aggregate only.
 */
async function ceiling(pool: BrowserPool, c: BatchedConfig, firstSeed = 1): Promise<number> {
  const game = getGame(c.game);
  const slot = await pool.lease();
  const open = async () => BatchedPage.open(await slot.healthyBrowser(), game, { deviceScaleFactor: 1, stepTimeoutMs: 120_000, resetTimeoutMs: 20_000 });
  let page = await open();
  const started = performance.now();
  try {
    const obs = obsRequest(c.observation);
    const preset = game.manifest.preset.map((p) => p.action);
    const reset = async (seed: number): Promise<VerifierState> => {
      // A page that faults while reloading (as the vector env would, it is rebuilt) is replaced by a fresh one, once.
      for (let attempt = 0; ; attempt++) {
        try {
          await page.load([{ slot: 0, seed }]);
          const [r] = await page.run([[0, resetPlan(game.manifest, obs)]]);
          if (!r.ok) throw new Error(`bench: ${c.label} did not reset: ${r.error}`);
          return r.ok.at(-1)!.state;
        } catch (e) {
          if (!(e instanceof BatchPageFault) || attempt > 0) throw e;
          process.stderr.write(`${c.label}: ceiling page faulted on a reload (${e.message}); a fresh page\n`);
          await page.close();
          page = await open();
        }
      }
    };
    // The policy the aggregate plays, run in the page (it is self-contained), else random actions.
    const policy = c.policy ? c.policy.toString() : null;
    let seed = firstSeed;
    let rng = 1;
    let steps = 0;
    let state = await reset(seed);
    let seconds = 0;
    // Short episodes reload often: the loop also stops after CEILING_WALL_MS of wall time (reloads included).
    while (steps < CEILING_STEPS && (steps === 0 || performance.now() - started < CEILING_WALL_MS)) {
      const t = performance.now();
      const r = await page.page.evaluate(
        ({ preset, ms, n, obs, rng, policy, state }) => {
          // No named helper functions in here: tsx would wrap them in a __name() the page lacks.
          const api = (document.querySelector('iframe')!.contentWindow as unknown as { __arcade: typeof globalThis.__arcade }).__arcade;
          const choose = policy ? ((0, eval)(`(${policy})`) as (s: unknown) => number) : null;
          let s = rng;
          let last = state;
          let i = 0;
          let over = false;
          while (i < n && !over) {
            s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
            const k = choose ? choose(last) : Math.floor((s / 4294967296) * preset.length);
            const r = api.step({ action: preset[k], ms, obs });
            last = r.state;
            over = r.state.gameOver === true;
            i++;
          }
          // Reading the frame waits for the drawing queued so far: a WebGL game's GPU work (in the
          // GPU process, SwiftShader here) is then inside the timed loop, as a vector env's pays it.
          api.frameHash();
          return { steps: i, rng: s, over, state: last };
        },
        { preset, ms: game.manifest.msPerStep, n: CEILING_STEPS - steps, obs, rng, policy, state },
      );
      seconds += (performance.now() - t) / 1000;
      steps += r.steps;
      rng = r.rng;
      if (!r.over) {
        state = r.state;
        continue;
      }
      try {
        state = await reset(++seed);
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

/** Aggregate steps/s of a BatchedVectorEnv of `numEnvs` at `perPage` instances per page, and this process's CPU ms per instance-step. */
async function aggregate(pool: BrowserPool, c: BatchedConfig, numEnvs: number, perPage: number): Promise<{ rate: number; nodeCpuMsPerStep: number }> {
  const game = getGame(c.game);
  const v = new BatchedVectorEnv({ game: c.game, numEnvs, seed: 100, observation: c.observation, maxSteps: MAX_STEPS, instancesPerPage: perPage, pool });
  const rng = new SeededRandom(7);
  const n = game.manifest.preset.length;
  try {
    let { observations } = await v.reset();
    const act = () => observations.map((o) => (c.policy && o.state ? c.policy(o.state) : rng.nextUint32() % n));
    for (let i = 0; i < 10; i++) observations = (await v.step(act())).observations;
    let steps = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    while (performance.now() - t0 < WINDOW_MS) {
      observations = (await v.step(act())).observations;
      steps += numEnvs;
    }
    const rate = steps / ((performance.now() - t0) / 1000);
    const cpu = process.cpuUsage(cpu0);
    return { rate, nodeCpuMsPerStep: (cpu.user + cpu.system) / 1000 / steps };
  } finally {
    await v.close();
  }
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
    const figures = {
      label: c.label,
      instancesPerPage: m.best,
      pageRates: m.rates,
      pageCpuMs: m.cpuMsPerStep,
      ceiling: Math.round(top),
      ceilingAllCores: Math.round(topAllCores),
      ceilingAllCoresByPage: allCores.map((r) => Math.round(r)),
      byEnvs,
      best,
      nodeCpuMsPerStep: round(nodeCpu[bestEnvs], 4),
      ratio: round(best / (cores * top)),
      ratioAllCores: round(best / topAllCores),
    };
    log(
      `${c.label}: in-page ceiling ${figures.ceiling} steps/s on one core, ${figures.ceilingAllCores} on ${cores} at once (${JSON.stringify(figures.ceilingAllCoresByPage)}); aggregate ${JSON.stringify(byEnvs)} steps/s by envs; ratio vs ${cores} × ceiling ${figures.ratio}, vs all cores at once ${figures.ratioAllCores}`,
    );
    out.push(figures);
  }
  return out;
}
