/**
 * npm run bench:env — how fast one Env steps Snake with a seeded random agent:
 *  1. the project's virtual time, state observations, with the default 2 spare tabs (the next
 *     episodes load in the background while this one steps) and with none (each reset reloads
 *     the page in place, while nothing else runs);
 *  2. the same with 84×84 grayscale pixel observations (2 spares);
 *  3. Playwright's page.clock instead of the project's clock (best loop: runFor + one evaluate),
 *     driven through the same raw CDP channel the gym steps through (gym/browser/cdp-channel.ts),
 *     so that the ratio credits virtual time and not a cheaper transport;
 *  4. the game stepped inside the page with no driver round trips (the ceiling).
 * Step rates count the time spent stepping; resets are reported on their own line, and
 * `resets_included_vs_excluded` is the state loop's steps/s with its resets counted ÷ without.
 * The loops 1–3 take turns in blocks (BENCH_BLOCKS) so the machine's changing load falls on all
 * alike. A spare's page load runs while the steps do, so with spares a reset's CPU (browser,
 * renderer and this process's route handler) is paid inside the step times: `ratio_vs_page_clock`
 * (steps only) is reported with and without spares, and end to end (`…_resets_included`).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildGames } from '../scripts/build-games';
import { launchBrowser, openPageChannel, type PageChannel, GAME_ORIGIN, serveFiles } from '../gym/browser';
import { makeEnv } from '../gym';
import { PUBLIC_DIR, RUNTIME_BUNDLE_PATH } from '../gym/paths';
import { SeededRandom } from '../gym/random';
import { getGame } from '../gym/catalog';
import type { ObservationKind, GuiAction, VerifierState } from '../gym/schema';
import { formatTable } from '../cli/format-table';
import { smokeOr } from './smoke';

const GAME = 'snake';
const STEPS = Number(process.env.BENCH_STEPS ?? smokeOr(2000, 200));
const SEED = 1;

interface Measured {
  steps: number;
  stepSeconds: number;
  resets: number;
  resetSeconds: number;
  /** The first reset, which also opens the context and page (included in resetSeconds). */
  firstResetSeconds: number;
  /** This process's CPU seconds over the timed steps and resets (the first reset excluded). */
  nodeCpuSeconds: number;
}

/** A loop that can be run in blocks, so that variants take turns and the machine's changing load falls on all alike. */
interface Looper {
  readonly m: Measured;
  /** Plays `steps` more steps (resetting at episode ends). */
  run(steps: number): Promise<void>;
  close(): Promise<void>;
}

const newMeasured = (first: number): Measured => ({ steps: 0, stepSeconds: 0, resets: 1, resetSeconds: first, firstResetSeconds: first, nodeCpuSeconds: 0 });
const nodeCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function envLooper(browser: Browser, observation: ObservationKind[], spares: number): Promise<Looper> {
  const env = makeEnv({ game: GAME, seed: SEED, observation, maxSteps: 100_000, spares }, browser);
  const rng = new SeededRandom(SEED);
  const n = env.actionSpace.type === 'Discrete' ? env.actionSpace.n : 1;
  const t0 = performance.now();
  await env.reset();
  const m = newMeasured((performance.now() - t0) / 1000);
  return {
    m,
    async run(steps) {
      const cpu0 = nodeCpuSeconds();
      for (let i = 0; i < steps; i++) {
        let t = performance.now();
        const r = await env.step(Math.floor(rng.next() * n));
        m.stepSeconds += (performance.now() - t) / 1000;
        m.steps++;
        if (r.terminated || r.truncated) {
          t = performance.now();
          await env.reset();
          m.resetSeconds += (performance.now() - t) / 1000;
          m.resets++;
        }
      }
      m.nodeCpuSeconds += nodeCpuSeconds() - cpu0;
    },
    close: () => env.close(),
  };
}

/** The game page with the runtime installed but the page's own clock left alone. */
async function nativeClockPage(browser: Browser, seed: number): Promise<{ page: Page; channel: PageChannel }> {
  const game = getGame(GAME);
  const context = await browser.newContext({ viewport: { width: game.manifest.canvas.width, height: game.manifest.canvas.height } });
  await serveFiles(context, [{ prefix: '/', dir: PUBLIC_DIR }]);
  const config = { seed, time: 'native', paint: false, canvas: game.manifest.canvas };
  await context.addInitScript({
    content: `globalThis.__ARCADE_CONFIG__ = ${JSON.stringify(config)};\n${readFileSync(RUNTIME_BUNDLE_PATH, 'utf8')};\n${readFileSync(path.join(PUBLIC_DIR, game.verifierPath), 'utf8')}`,
  });
  const page = await context.newPage();
  // Deterministic only when paused before the page loads (and without install()).
  await page.clock.pauseAt(new Date('2024-01-01T00:00:00Z'));
  await page.goto(`${GAME_ORIGIN}${game.basePath}index.html`);
  return { page, channel: await openPageChannel(page) };
}

/**
 * Playwright's `page.clock.runFor(ms)`, called through the raw channel: Playwright keeps its
 * clock in the page (`__pwClock.controller`, an internal name checked here) and its own
 * runFor evaluates this same call, after logging it in another init script per call.
 */
async function pageClockRunFor(channel: PageChannel): Promise<(ms: number) => Promise<unknown>> {
  const found = await channel.evaluate<boolean>("typeof globalThis.__pwClock?.controller?.runFor === 'function'");
  if (!found) throw new Error("bench: Playwright's in-page clock (__pwClock) was not found; its injected script changed?");
  return (ms) => channel.evaluate(`globalThis.__pwClock.controller.runFor(${ms})`, { awaitPromise: true });
}

async function pageClockLooper(browser: Browser): Promise<Looper> {
  const game = getGame(GAME);
  const preset = game.manifest.preset.map((p) => p.action);
  const rng = new SeededRandom(SEED);
  const t0 = performance.now();
  let { page, channel } = await nativeClockPage(browser, SEED);
  let runFor = await pageClockRunFor(channel);
  const m = newMeasured((performance.now() - t0) / 1000);
  const obs = { state: true, vector: false, pixels: null, frameHash: false };
  return {
    m,
    async run(steps) {
      const cpu0 = nodeCpuSeconds();
      for (let i = 0; i < steps; i++) {
        let t = performance.now();
        const action: GuiAction = preset[Math.floor(rng.next() * preset.length)];
        // The best page.clock loop: two round trips, one evaluate (read the state the last runFor
        // left, then dispatch the next input) and the clock's runFor, both over the raw channel.
        const r = await channel.evaluate<{ state: VerifierState }>(
          `(() => { const s = globalThis.__arcade.observe(${JSON.stringify(obs)}); globalThis.__arcade.dispatch(${JSON.stringify(action)}); return s; })()`,
        );
        await runFor(game.manifest.msPerStep);
        m.stepSeconds += (performance.now() - t) / 1000;
        m.steps++;
        if (r.state.gameOver) {
          t = performance.now();
          await page.context().close();
          ({ page, channel } = await nativeClockPage(browser, SEED + m.resets));
          runFor = await pageClockRunFor(channel);
          m.resetSeconds += (performance.now() - t) / 1000;
          m.resets++;
        }
      }
      m.nodeCpuSeconds += nodeCpuSeconds() - cpu0;
    },
    close: () => page.context().close(),
  };
}

async function inPageLoop(browser: Browser): Promise<Measured> {
  const env = makeEnv({ game: GAME, seed: SEED, observation: 'state', maxSteps: 100_000 }, browser);
  await env.reset();
  await new Promise((r) => setTimeout(r, 1500));
  const page = env.currentPage!;
  const preset = env.manifest.preset.map((p) => p.action);
  const ms = env.msPerStep;
  const t = performance.now();
  // The whole loop runs in the page: the same step function, no driver round trips. A game
  // over restarts the game the way a player would (Enter), so the loop keeps stepping.
  const steps = await page.evaluate(
    ({ preset, ms, n, seed }) => {
      // No named helper functions in here: tsx would wrap them in a __name() the page lacks.
      let s = seed >>> 0;
      const obs = { state: true, vector: false, pixels: null, frameHash: false };
      for (let i = 0; i < n; i++) {
        s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
        const r = globalThis.__arcade.step({ action: preset[Math.floor((s / 4294967296) * preset.length)], ms, obs });
        if (r.state.gameOver) globalThis.__arcade.dispatch({ type: 'key', key: 'Enter' });
      }
      return n;
    },
    { preset, ms, n: STEPS * 5, seed: SEED },
  );
  const seconds = (performance.now() - t) / 1000;
  await env.close();
  return { steps, stepSeconds: seconds, resets: 0, resetSeconds: 0, firstResetSeconds: 0, nodeCpuSeconds: 0 };
}

/** Turns each variant takes: blocks of STEPS / BLOCKS steps, one variant after another. */
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? smokeOr(10, 2));
/** Between blocks: background work a variant started (spares loading) ends before the next variant's block. */
const BETWEEN_BLOCKS_MS = 500;

async function main() {
  await buildGames();
  const browser = await launchBrowser();
  const msPerStep = getGame(GAME).manifest.msPerStep;
  const load0 = os.loadavg()[0];
  try {
    const variants = {
      state: await envLooper(browser, ['state'], 2),
      stateNoSpares: await envLooper(browser, ['state'], 0),
      pixels: await envLooper(browser, ['state', 'pixels'], 2),
      pageClock: await pageClockLooper(browser),
    };
    // New pages burn CPU for a moment after loading; let that pass before measuring.
    await new Promise((r) => setTimeout(r, 1500));
    const block = Math.max(1, Math.round(STEPS / BLOCKS));
    for (let b = 0; b < BLOCKS; b++) {
      for (const v of Object.values(variants)) {
        await v.run(block);
        await new Promise((r) => setTimeout(r, BETWEEN_BLOCKS_MS));
      }
    }
    await Promise.all(Object.values(variants).map((v) => v.close()));
    const { state, stateNoSpares, pixels, pageClock } = Object.fromEntries(Object.entries(variants).map(([k, v]) => [k, v.m])) as Record<
      keyof typeof variants,
      Measured
    >;
    const inPage = await inPageLoop(browser);
    const load1 = os.loadavg()[0];
    const rate = (m: Measured) => m.steps / m.stepSeconds;
    const resetMsAmortised = (m: Measured) => +((1000 * (m.resetSeconds - m.firstResetSeconds)) / Math.max(1, m.resets - 1)).toFixed(1);
    const rateWithResets = (m: Measured) => m.steps / (m.stepSeconds + m.resetSeconds - m.firstResetSeconds);
    const includedVsExcluded = (m: Measured) => +(rateWithResets(m) / rate(m)).toFixed(2);
    const nodeMsPerStep = (m: Measured) => +((1000 * m.nodeCpuSeconds) / m.steps).toFixed(3);
    const rows = [
      ['virtual time, state (2 spares)', state],
      ['virtual time, state (no spares)', stateNoSpares],
      ['virtual time, 84×84 pixels (2 spares)', pixels],
      ['Playwright page.clock, state', pageClock],
      ['in-page ceiling (no round trips)', inPage],
    ] as const;
    console.log(
      `bench:env — ${GAME}, ${msPerStep} virtual ms per step, seeded random agent, ${BLOCKS} interleaved blocks per variant, browser ${browser.version()}; load average ${load0.toFixed(2)} → ${load1.toFixed(2)} on ${os.cpus().length} cores\n`,
    );
    console.log(
      formatTable(
        ['mode', 'steps', 'steps/s', 'ms/step', 'virtual s per wall s', 'resets', 'ms/reset', 'amortised ms/reset', 'Node CPU ms/step (resets incl.)'],
        rows.map(([name, m]) => [
          name,
          m.steps,
          rate(m).toFixed(0),
          (1000 / rate(m)).toFixed(2),
          ((rate(m) * msPerStep) / 1000).toFixed(1),
          m.resets,
          m.resets ? ((1000 * m.resetSeconds) / m.resets).toFixed(0) : '-',
          m.resets ? resetMsAmortised(m) : '-',
          m.nodeCpuSeconds ? nodeMsPerStep(m) : '-',
        ]),
      ),
    );
    const result = {
      game: GAME,
      ms_per_step: msPerStep,
      steps_per_s_state: Math.round(rate(state)),
      steps_per_s_state_no_spares: Math.round(rate(stateNoSpares)),
      steps_per_s_pixels: Math.round(rate(pixels)),
      steps_per_s_page_clock: Math.round(rate(pageClock)),
      steps_per_s_in_page: Math.round(rate(inPage)),
      virtual_seconds_per_wall_second: +((rate(state) * msPerStep) / 1000).toFixed(1),
      ratio_vs_page_clock: +(rate(state) / rate(pageClock)).toFixed(2),
      ratio_vs_page_clock_no_spares: +(rate(stateNoSpares) / rate(pageClock)).toFixed(2),
      // End to end, resets counted on both sides (the page.clock loop opens a page per episode).
      ratio_vs_page_clock_resets_included: +(rateWithResets(state) / rateWithResets(pageClock)).toFixed(2),
      ratio_vs_in_page: +(rate(state) / rate(inPage)).toFixed(3),
      reset_ms: Math.round((1000 * state.resetSeconds) / state.resets),
      // Every reset after the first (which opens the page): what an episode boundary costs in a long run.
      reset_ms_amortised: resetMsAmortised(state),
      reset_ms_amortised_no_spares: resetMsAmortised(stateNoSpares),
      resets_included_vs_excluded: includedVsExcluded(state),
      resets_included_vs_excluded_no_spares: includedVsExcluded(stateNoSpares),
      // Including the resets' share (a spare's page load is served by this process's route handler).
      node_cpu_ms_per_step: nodeMsPerStep(state),
      node_cpu_ms_per_step_no_spares: nodeMsPerStep(stateNoSpares),
      load_avg_1m: [+load0.toFixed(2), +load1.toFixed(2)],
    };
    console.log(JSON.stringify(result));
  } finally {
    await browser.close();
  }
}

await main();
