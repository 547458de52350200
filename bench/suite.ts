/**
 * npm run bench:suite — per game: steps/s inside the page (no driver round trips) and through
 * the gym with state observations; then the wall time of the whole suite's evaluation
 * (random agent, 3 seeds per game), as `arcade-gym eval --suite core --agent random --seeds 3` runs it.
 */
import { buildGames } from '../scripts/build-games';
import { launchBrowser } from '../gym/browser';
import { makeEnv } from '../gym';
import { gamesInSuite } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { SeededRandom } from '../gym/random';
import { formatTable } from '../cli/format-table';
import type { Browser } from 'playwright-core';
import type { CatalogEntry } from '../gym/schema';
import { smokeOr } from './smoke';

const SUITE = process.env.BENCH_SUITE ?? 'core';
const GYM_STEPS = Number(process.env.BENCH_STEPS ?? smokeOr(150, 20));
/** Seeds of the suite evaluation; the smoke mode plays one, on two of the suite's games. */
const EVAL_SEEDS = smokeOr([0, 1, 2], [0]);

async function gymRate(browser: Browser, game: CatalogEntry): Promise<{ gym: number; inPage: number }> {
  const env = makeEnv({ game: game.manifest.id, seed: 1, observation: 'state', maxSteps: 100_000 }, browser);
  const rng = new SeededRandom(1);
  await env.reset();
  let steps = 0;
  let seconds = 0;
  while (steps < GYM_STEPS) {
    const t = performance.now();
    const r = await env.step(Math.floor(rng.next() * game.manifest.preset.length));
    seconds += (performance.now() - t) / 1000;
    steps++;
    if (r.terminated || r.truncated) await env.reset();
  }
  // In-page: the same step function in a loop inside the page, until the game ends or N steps.
  await env.reset({ seed: 2 });
  const preset = game.manifest.preset.map((p) => p.action);
  const t = performance.now();
  const inPageSteps = await env.currentPage!.evaluate(
    ({ preset, ms, n }) => {
      let s = 12345;
      const obs = { state: true, vector: false, pixels: null, frameHash: false };
      let i = 0;
      for (; i < n; i++) {
        s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
        const r = globalThis.__arcade.step({ action: preset[Math.floor((s / 4294967296) * preset.length)], ms, obs });
        if (r.state.gameOver) break;
      }
      return i + 1;
    },
    { preset, ms: game.manifest.msPerStep, n: GYM_STEPS * 4 },
  );
  const inPageSeconds = (performance.now() - t) / 1000;
  await env.close();
  return { gym: steps / seconds, inPage: inPageSteps / inPageSeconds };
}

async function main() {
  await buildGames();
  const games = smokeOr(gamesInSuite(SUITE), gamesInSuite(SUITE).slice(0, 2));
  const browser = await launchBrowser();
  try {
    const rows: (string | number)[][] = [];
    const rates: number[] = [];
    for (const g of games) {
      const r = await gymRate(browser, g);
      rates.push(r.gym);
      rows.push([g.manifest.id, g.manifest.renderer, g.manifest.msPerStep, Math.round(r.inPage), Math.round(r.gym)]);
      process.stderr.write(`${g.manifest.id}: gym ${r.gym.toFixed(0)} steps/s\n`);
    }
    const started = performance.now();
    for (const g of games) await evaluateGame({ game: g, agent: 'random', seeds: EVAL_SEEDS, observation: ['state'], browser });
    const suiteSeconds = (performance.now() - started) / 1000;
    console.log(`bench:suite — suite "${SUITE}", ${games.length} games, browser ${browser.version()}\n`);
    console.log(formatTable(['game', 'renderer', 'ms/step', 'in-page steps/s', 'gym steps/s'], rows));
    console.log(`\nsuite evaluation (random agent, ${EVAL_SEEDS.length} seeds per game): ${suiteSeconds.toFixed(1)} s`);
    console.log(
      JSON.stringify({
        suite: SUITE,
        games: games.length,
        webgl_games: games.filter((g) => g.manifest.renderer === 'webgl').length,
        min_gym_steps_per_s: Math.round(Math.min(...rates)),
        median_gym_steps_per_s: Math.round([...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)]),
        suite_eval_seconds: +suiteSeconds.toFixed(1),
      }),
    );
  } finally {
    await browser.close();
  }
}

await main();
