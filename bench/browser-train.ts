/**
 * `npm run bench:browser-train`: PPO trained in a page (gym/browser-train: game frames of the page,
 * gym/ppo's train()) on the WebGPU and CPU backends, against the Node `arcade-gym train` setup
 * (the gym's batched pages, the same train()) on the same game and config, in the same run.
 *
 * BT_GAME (default snake), BT_STEPS (4096), BT_ENVS (8), BT_CONFIG (PPO overrides as JSON, default
 * {"numSteps":32}). Env steps/s is steps ÷ the run's wall time (env reset included); updates/s is
 * updates ÷ the seconds spent in updates. The last line is one JSON object.
 */
import path from 'node:path';
import { makeTrainingEnv, runPlanner } from '../gym/vector';
import { actionOptions, train } from '../gym/ppo';
import { observationShape, TrainCommandConfig, trainPresetPath } from '../gym/training-settings';
import { launchBrowser, openTrainerPage, WEBGPU_ARGS } from '../gym/browser';
import type * as Trainer from '../gym/browser-train';
import { resolveRunSettings } from '../gym/browser-train';
import { existsSync, readFileSync } from 'node:fs';
import { TRAINER_BUNDLE_PATH } from '../gym/build';
import { getGame } from '../gym/catalog';
import { preferSwiftShaderWhenUnset } from '../gym';
import { ROOT } from '../gym/paths';
import { smokeOr } from './smoke';

const GAME = process.env.BT_GAME ?? 'snake';
const STEPS = Number(process.env.BT_STEPS ?? smokeOr(4096, 256));
const ENVS = Number(process.env.BT_ENVS ?? smokeOr(8, 2));
const CONFIG = JSON.parse(process.env.BT_CONFIG ?? '{"numSteps":32}') as Record<string, unknown>;
const SEED = 1;

interface Measured {
  steps: number;
  seconds: number;
  updates: number;
  updateSeconds: number;
  finalReturn: number | null;
  backend: string;
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const rates = (m: Measured) => ({ steps_per_s: round(m.steps / m.seconds, 1), updates_per_s: round(m.updates / m.updateSeconds, 2) });

async function inPage(backend: 'webgpu' | 'cpu', preset: unknown, presetPath: string | null): Promise<Measured> {
  const browser = await launchBrowser({ extraArgs: backend === 'webgpu' ? WEBGPU_ARGS : [] });
  try {
    const page = await openTrainerPage(browser);
    return await page.evaluate(
      async ({ game, preset, presetPath, steps, envs, seed, config, backend }) => {
        const T = (window as unknown as { ArcadeTrainer: typeof Trainer }).ArcadeTrainer;
        const catalog = await (await fetch('/games/catalog.json')).json();
        const entry = catalog.games.find((g: { manifest: { id: string } }) => g.manifest.id === game);
        const settings = T.resolveRunSettings(game, preset, presetPath, { totalTimesteps: steps, numEnvs: envs, seed, config });
        const t0 = performance.now();
        const run = await T.BrowserTrainingRun.start({ settings, game: entry, backend, container: document.getElementById('frames')! });
        const r = await run.done;
        return {
          steps: r.globalStep,
          seconds: (performance.now() - t0) / 1000,
          updates: r.updates,
          updateSeconds: r.metrics.reduce((a, m) => a + m.updateSeconds, 0),
          finalReturn: r.metrics.at(-1)?.episodeReturnMean ?? null,
          backend: `${r.backend.kind}: ${r.backend.info}`,
        };
      },
      { game: GAME, preset, presetPath, steps: STEPS, envs: ENVS, seed: SEED, config: CONFIG, backend },
    );
  } finally {
    await browser.close();
  }
}

/**
 * What `arcade-gym train --backend cpu` runs, built as it builds it: the settings resolved by the
 * one resolver (gym/ppo/training-run.ts, through the page's resolveRunSettings), the env under
 * the run's planner, and the observation shape and action set the run's settings give (a
 * preset that observes afterstates reads one feature row per decision, not the plain vector).
 */
async function inNode(preset: unknown, presetPath: string | null): Promise<Measured> {
  const settings = resolveRunSettings(GAME, preset, presetPath, { totalTimesteps: STEPS, numEnvs: ENVS, seed: SEED, config: CONFIG, backend: 'cpu' });
  const c = TrainCommandConfig.parse(settings.command);
  const planner = await runPlanner(c);
  const env = makeTrainingEnv(c, planner);
  const entry = getGame(GAME);
  const t0 = performance.now();
  try {
    const r = await train({
      env,
      obsShape: observationShape(c, entry.featureNames.length),
      backend: 'cpu',
      ...actionOptions(c, getGame(c.game), planner, env),
      config: settings.ppo,
    });
    return {
      steps: r.globalStep,
      seconds: (performance.now() - t0) / 1000,
      updates: r.updates,
      updateSeconds: r.metrics.reduce((a, m) => a + m.updateSeconds, 0),
      finalReturn: r.metrics.at(-1)?.episodeReturnMean ?? null,
      backend: `${r.backend.kind}: ${r.backend.info}`,
    };
  } finally {
    await env.close();
  }
}

async function main(): Promise<void> {
  preferSwiftShaderWhenUnset();
  if (!existsSync(TRAINER_BUNDLE_PATH)) throw new Error(`${TRAINER_BUNDLE_PATH} is missing: run npm run build:games first`);
  const file = trainPresetPath(GAME);
  const preset = file ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : null;
  const presetPath = file ? path.relative(ROOT, file) : null;
  console.log(`${GAME}: ${STEPS} steps, ${ENVS} envs, seed ${SEED}, preset ${presetPath ?? 'none'}, overrides ${JSON.stringify(CONFIG)}`);

  const node = await inNode(preset, presetPath);
  const cpu = await inPage('cpu', preset, presetPath);
  const webgpu = await inPage('webgpu', preset, presetPath);

  console.log('\n| run | backend | env steps/s | updates/s | wall s | final mean return |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const [name, m] of [
    ['node (arcade-gym train)', node],
    ['browser', cpu],
    ['browser', webgpu],
  ] as const) {
    const r = rates(m);
    console.log(`| ${name} | ${m.backend} | ${r.steps_per_s} | ${r.updates_per_s} | ${round(m.seconds, 1)} | ${m.finalReturn ?? '—'} |`);
  }
  const best = Math.max(cpu.steps / cpu.seconds, webgpu.steps / webgpu.seconds);
  console.log(
    JSON.stringify({
      game: GAME,
      steps: STEPS,
      envs: ENVS,
      config: CONFIG,
      node: rates(node),
      browser_cpu: rates(cpu),
      browser_webgpu: rates(webgpu),
      /** The page's faster backend against the Node CLI's setup on the CPU backend. */
      browser_vs_node_steps_per_s: round(best / (node.steps / node.seconds)),
      browser_cpu_vs_node_steps_per_s: round(cpu.steps / cpu.seconds / (node.steps / node.seconds)),
      browser_webgpu_vs_cpu_updates: round(webgpu.updates / webgpu.updateSeconds / (cpu.updates / cpu.updateSeconds)),
      adapter: webgpu.backend,
    }),
  );
}

await main();
