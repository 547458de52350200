/**
 * npm run bench:ablation — which parts of the recipe matter? For each game and training seed,
 * trains from the game's preset (games/<id>/train.json) under each variant, then evaluates the
 * policy (in the preset's evaluation mode) on held-out seeds at the official step budget:
 *
 *   cleanrl          the preset with every UI-TARS-2 enhancement off (ppoPresets.cleanrl)
 *   ui-tars-2        the preset with all of them on (ppoPresets.uiTars2)
 *   -clip-higher, -decoupled-gae, -length-adaptive, -value-pretrain
 *                    ui-tars-2 with that one switched off
 *   -shaping         ui-tars-2 without the preset's reward shaping
 *   grpo             GRPO (groups of the run's envs on one seed, episodes cut at the step budget),
 *                    the preset's learning rate and shaping
 *
 * Every variant keeps the preset's game-specific values (learning rate, γ, rollout length, reward
 * normalisation). Value pretraining is capped at a tenth of the run's updates (at least one), so
 * that at small budgets it does not spend the whole run on the critic.
 *
 *   ABLATION_GAMES=snake,g2048   games (default snake,g2048)
 *   ABLATION_SEEDS=3             training seeds 1..n per game and variant (default 3)
 *   ABLATION_STEPS=20000         env steps per run (default 20000)
 *   ABLATION_EVAL=10             held-out evaluation episodes per run (default 10)
 *   ABLATION_VARIANTS=cleanrl,ui-tars-2   a subset of the variants (default all)
 *   ABLATION_OUT=dir             where the runs go (default: a temporary folder)
 *
 * Prints a table (mean over seeds of each run's evaluation mean, ± their std across seeds);
 * the last line is one JSON object.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildGames } from '../scripts/build-games';
import { formatTable } from '../cli/format-table';
import { makeTrainingEnv, runPlanner } from '../gym/vector';
import { actionOptions, runDirectoryWriter, grpo, train, ppoPresets, parseGrpoConfig } from '../gym/ppo';
import { observationShape } from '../gym/training-settings';
import { getGame } from '../gym/catalog';
import { launchBrowser } from '../gym/browser';
import { evaluateGame } from '../gym/eval';
import { mean, std } from '../gym/stats';
import { listEnv, positiveInt, resolveRun, round } from './learn-run';
import { smokeOr } from './smoke';

const EVAL_SEED_BASE = 8_000_000;

const uiTars2 = ppoPresets.uiTars2;
const VARIANTS: Record<string, Record<string, unknown> | 'grpo'> = {
  cleanrl: ppoPresets.cleanrl,
  'ui-tars-2': uiTars2,
  '-clip-higher': { ...uiTars2, clipHigher: { enabled: false } },
  '-decoupled-gae': { ...uiTars2, decoupledGae: { enabled: false } },
  '-length-adaptive': { ...uiTars2, lengthAdaptiveGae: { enabled: false } },
  '-value-pretrain': { ...uiTars2, valuePretrain: { enabled: false } },
  '-shaping': uiTars2, // the preset's rewardShaping is dropped below
  grpo: 'grpo',
};

interface RunResult {
  game: string;
  variant: string;
  seed: number;
  steps: number;
  evalMean: number;
  evalStd: number;
  trainReturnMean: number | null;
  seconds: number;
}

async function runOne(
  game: string,
  variant: string,
  seed: number,
  steps: number,
  evalSeeds: number[],
  outRoot: string,
  browser: Awaited<ReturnType<typeof launchBrowser>>,
): Promise<RunResult> {
  const t0 = performance.now();
  const entry = getGame(game);
  const spec = VARIANTS[variant];
  // Macro decisions (a preset's `actions`) are a PPO option; GRPO plays the preset's keys.
  const { run, config } = resolveRun({
    game,
    seed,
    totalTimesteps: steps,
    ppoOverrides: spec === 'grpo' ? {} : spec,
    // Layers merge key by key, so the preset's `observation: afterstates` must be overridden too.
    trainingOverrides: spec === 'grpo' ? { actions: { kind: 'preset', observation: 'verifier' } } : undefined,
  });
  if (variant === '-shaping') config.rewardShaping = { perStep: 0, terminal: 0 };
  if (config.valuePretrain.enabled) {
    const updates = Math.floor(config.totalTimesteps / (config.numSteps * run.numEnvs));
    config.valuePretrain.maxIterations = Math.max(1, Math.min(config.valuePretrain.maxIterations, Math.floor(updates / 10)));
  }
  const outDir = path.join(outRoot, game, variant, String(seed));
  mkdirSync(outDir, { recursive: true });
  const planner = await runPlanner(run);
  const env = makeTrainingEnv(run, planner);
  const { numActions, ...macro } = actionOptions(run, getGame(run.game), planner, env);
  const common = {
    env,
    obsShape: observationShape(run, entry.featureNames.length),
    numActions,
    backend: run.backend,
    writer: await runDirectoryWriter(outDir),
  };
  let globalStep: number;
  let trainReturnMean: number | null;
  try {
    if (spec === 'grpo') {
      const g = await grpo({
        ...common,
        config: parseGrpoConfig({
          seed,
          totalTimesteps: steps,
          groupSize: run.numEnvs,
          maxEpisodeSteps: entry.manifest.stepBudget,
          learningRate: config.learningRate,
          annealLr: config.annealLr,
          rewardShaping: config.rewardShaping,
        }),
      });
      globalStep = g.globalStep;
      trainReturnMean = g.metrics.at(-1)?.episodeReturnMean ?? null;
    } else {
      const r = await train({ ...common, ...macro, config });
      globalStep = r.globalStep;
      trainReturnMean = r.metrics.at(-1)?.episodeReturnMean ?? null;
    }
  } finally {
    await env.close();
  }
  const e = await evaluateGame({
    game: entry,
    agent: 'ppo',
    seeds: evalSeeds,
    browser,
    agentOptions: { checkpoint: path.join(outDir, 'policy.agckpt'), backend: 'cpu', mode: run.evaluation.mode },
  });
  const seconds = (performance.now() - t0) / 1000;
  process.stderr.write(`${game} ${variant} seed ${seed}: ${globalStep} steps, eval ${round(e.meanScore)} ± ${round(e.stdScore)} (${round(seconds, 0)} s)\n`);
  return { game, variant, seed, steps: globalStep, evalMean: e.meanScore, evalStd: e.stdScore, trainReturnMean, seconds };
}

async function main(): Promise<void> {
  const games = listEnv('ABLATION_GAMES', smokeOr(['snake', 'g2048'], ['snake']));
  // The smoke mode trains the two recipes and GRPO (the other code path): the other variants only change their config.
  const variants = listEnv('ABLATION_VARIANTS', smokeOr(Object.keys(VARIANTS), ['cleanrl', 'ui-tars-2', 'grpo']));
  for (const v of variants) if (!(v in VARIANTS)) throw new Error(`ABLATION_VARIANTS: unknown variant "${v}" (known: ${Object.keys(VARIANTS).join(', ')})`);
  const seeds = Array.from({ length: positiveInt('ABLATION_SEEDS', smokeOr(3, 1)) }, (_, i) => i + 1);
  const steps = positiveInt('ABLATION_STEPS', smokeOr(20_000, 256));
  const evalSeeds = Array.from({ length: positiveInt('ABLATION_EVAL', smokeOr(10, 1)) }, (_, i) => EVAL_SEED_BASE + i);
  const outRoot = process.env.ABLATION_OUT ? path.resolve(process.env.ABLATION_OUT) : mkdtempSync(path.join(os.tmpdir(), 'arcade-ablation-'));
  await buildGames();
  for (const g of games) getGame(g); // unknown ids fail before any training

  const started = performance.now();
  const runs: RunResult[] = [];
  const browser = await launchBrowser();
  try {
    for (const g of games) for (const v of variants) for (const s of seeds) runs.push(await runOne(g, v, s, steps, evalSeeds, outRoot, browser));
  } finally {
    await browser.close();
  }

  const cell = (g: string, v: string) => {
    const means = runs.filter((r) => r.game === g && r.variant === v).map((r) => r.evalMean);
    return { mean: mean(means), std: means.length > 1 ? std(means) : 0, runs: means.map((m) => round(m, 2)) };
  };
  const table = variants.map((v) => ({ variant: v, games: Object.fromEntries(games.map((g) => [g, cell(g, v)])) }));
  console.log(
    formatTable(
      ['variant', ...games],
      table.map((row) => [row.variant, ...games.map((g) => `${round(row.games[g].mean)} ± ${round(row.games[g].std)}`)]),
    ),
  );
  console.log(
    `${steps} env steps per run, training seeds ${seeds.join(',')}, ${evalSeeds.length} held-out episodes per run (seeds ${evalSeeds[0]}–${evalSeeds.at(-1)}); ` +
      `runs in ${outRoot}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  console.log(
    JSON.stringify({
      bench: 'ablation',
      steps,
      seeds: seeds.length,
      evalEpisodes: evalSeeds.length,
      table,
      runs,
      wall_seconds: round((performance.now() - started) / 1000, 0),
      load_average: os.loadavg()[0],
    }),
  );
}

await main();
