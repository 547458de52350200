/**
 * npm run bench:learn — does PPO learn the games with their presets? For each game of the
 * learning set: train PPO from games/<id>/train.json (at most 300k env steps), then evaluate the
 * policy (in the preset's evaluation mode), the random and the scripted agent on the same held-out
 * seeds at the game's official step budget. Before training, the same vector env is stepped with
 * random actions to measure the gym's own rate, so train_vs_gym_steps_per_s says what the learner
 * costs on top of the gym.
 *
 *   LEARN_GAMES=snake,g2048   a subset (default: the learning set below)
 *   LEARN_STEPS=50000         env steps per game (default: the preset's, capped at 300k)
 *   LEARN_SEEDS=20            held-out evaluation episodes per agent (default 20)
 *   LEARN_BACKEND=cpu         the learner's backend (cpu, webgpu or auto; default cpu)
 *   LEARN_OUT=dir             where each game's run goes (default: a temporary folder)
 *
 * Prints a table; the last line is one JSON object. "Beats random": the PPO mean exceeds random's
 * by more than twice the standard error of the difference; "matches scripted": it is not below the
 * scripted agent's mean by more than that.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildGames } from '../scripts/build-games';
import { formatTable } from '../cli/format-table';
import { makeTrainingEnv } from '../cli/commands/train';
import { observationShape, pixelNetwork, rolloutLength, TrainCommandConfig } from '../cli/commands/train-config';
import { getGame } from '../gym/catalog';
import { launchBrowser } from '../gym/browser/launch';
import { evaluateGame, type GameEvaluation } from '../gym/eval/evaluate';
import { humanNormalised, mean } from '../gym/eval/stats';
import { parsePpoConfig } from '../gym/ppo/config';
import { runDirectoryWriter } from '../gym/ppo/checkpoint-files';
import { loadTrainPreset, mergeLayers, resolvePpoInput } from '../gym/ppo/preset';
import { train } from '../gym/ppo/train';
import { Rng } from '../gym/random/rng';

/** Snake, 2048, Tetris, a puzzle (path-of-light), two WebGL games (platformer, wood-blocks-3d). */
const LEARNING_SET = ['snake', 'g2048', 'tetris', 'path-of-light', 'platformer', 'wood-blocks-3d'];
const MAX_STEPS = 300_000;
/** Held-out: far from training seeds (1 + i) and from `train`'s own evaluation seeds (1e6 + …). */
const EVAL_SEED_BASE = 7_000_000;
/** Random-action steps per env for the gym's own rate. */
const GYM_PROBE_STEPS_PER_ENV = 32;
const TRAIN_SEED = 1;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

interface Figures {
  mean: number;
  std: number;
}

interface GameResult {
  game: string;
  steps: number;
  evalMode: string;
  ppo: Figures;
  random: Figures;
  scripted: Figures | null;
  human: number;
  ppoHumanNormalised: number;
  beatsRandom: boolean;
  matchesScripted: boolean | null;
  trainSeconds: number;
  wallSeconds: number;
  trainStepsPerSec: number;
  gymStepsPerSec: number;
  outDir: string;
}

const figures = (e: GameEvaluation): Figures => ({ mean: e.meanScore, std: e.stdScore });
/** Standard error of the difference of two means over n episodes each. */
const seDiff = (a: Figures, b: Figures, n: number) => Math.sqrt((a.std ** 2 + b.std ** 2) / n);
const round = (x: number, d = 1) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : x);

/** Env steps per second of the gym alone: the run's vector env stepped with uniform random actions. */
async function gymRate(env: ReturnType<typeof makeTrainingEnv>, numActions: number): Promise<number> {
  await env.reset({ seed: 999 });
  const rng = new Rng(999);
  const t0 = performance.now();
  for (let t = 0; t < GYM_PROBE_STEPS_PER_ENV; t++) {
    await env.step(Array.from({ length: env.numEnvs }, () => Math.floor(rng.uniform() * numActions)));
  }
  return (GYM_PROBE_STEPS_PER_ENV * env.numEnvs) / ((performance.now() - t0) / 1000);
}

async function learnGame(
  game: string,
  stepsOverride: number | null,
  seeds: number[],
  outRoot: string,
  browser: Awaited<ReturnType<typeof launchBrowser>>,
): Promise<GameResult> {
  const started = performance.now();
  const entry = getGame(game);
  const { preset } = loadTrainPreset(game);
  const c = TrainCommandConfig.parse(
    mergeLayers(
      { game, seed: TRAIN_SEED, backend: process.env.LEARN_BACKEND ?? 'cpu' },
      preset.training,
      stepsOverride ? { totalTimesteps: stepsOverride } : {},
    ),
  );
  const totalTimesteps = Math.min(MAX_STEPS, c.totalTimesteps);
  const run = { ...c, totalTimesteps };
  const { input } = resolvePpoInput({
    preset,
    overrides: { network: pixelNetwork(run) },
    seed: run.seed,
    totalTimesteps,
    numEnvs: run.numEnvs,
    fallbackNumSteps: rolloutLength(run),
  });
  const config = parsePpoConfig(input);
  const outDir = path.join(outRoot, game);
  mkdirSync(outDir, { recursive: true });

  const numActions = entry.manifest.preset.length;
  const env = makeTrainingEnv(run);
  let gymStepsPerSec: number;
  let trainSeconds: number;
  let steps: number;
  try {
    gymStepsPerSec = await gymRate(env, numActions);
    const t0 = performance.now();
    const result = await train({
      env,
      obsShape: observationShape(run, entry.featureNames.length),
      numActions,
      backend: run.backend,
      config,
      writer: runDirectoryWriter(outDir),
      onUpdate: (m) => {
        const ret = m.episodeReturnMean === null ? 'n/a' : m.episodeReturnMean.toFixed(1);
        process.stderr.write(`\r${game}: ${m.globalStep}/${totalTimesteps} steps, ${m.stepsPerSec.toFixed(0)} steps/s, mean return ${ret}   `);
      },
    });
    trainSeconds = (performance.now() - t0) / 1000;
    steps = result.globalStep;
  } finally {
    process.stderr.write('\n');
    await env.close();
  }

  const evaluate = (agent: string, agentOptions = {}) => evaluateGame({ game: entry, agent, seeds, browser, agentOptions });
  const ppo = figures(await evaluate('ppo', { checkpoint: path.join(outDir, 'policy.agckpt'), backend: 'cpu', mode: run.evaluation.mode }));
  const random = figures(await evaluate('random'));
  let scripted: Figures | null = null;
  try {
    scripted = figures(await evaluate('scripted'));
  } catch (e) {
    console.warn(`${game}: no scripted baseline (${e instanceof Error ? e.message : String(e)})`);
  }
  const n = seeds.length;
  const human = entry.manifest.humanReference.score;
  return {
    game,
    steps,
    evalMode: run.evaluation.mode,
    ppo,
    random,
    scripted,
    human,
    ppoHumanNormalised: humanNormalised(ppo.mean, human),
    beatsRandom: ppo.mean - random.mean > 2 * seDiff(ppo, random, n),
    matchesScripted: scripted ? ppo.mean - scripted.mean >= -2 * seDiff(ppo, scripted, n) : null,
    trainSeconds,
    wallSeconds: (performance.now() - started) / 1000,
    trainStepsPerSec: steps / trainSeconds,
    gymStepsPerSec,
    outDir,
  };
}

async function main(): Promise<void> {
  const games = (process.env.LEARN_GAMES ?? LEARNING_SET.join(','))
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
  const stepsOverride = process.env.LEARN_STEPS ? Math.min(MAX_STEPS, positiveInt('LEARN_STEPS', MAX_STEPS)) : null;
  const seeds = Array.from({ length: positiveInt('LEARN_SEEDS', 20) }, (_, i) => EVAL_SEED_BASE + i);
  const outRoot = process.env.LEARN_OUT ? path.resolve(process.env.LEARN_OUT) : mkdtempSync(path.join(os.tmpdir(), 'arcade-learn-'));
  await buildGames();
  for (const g of games) getGame(g); // unknown ids fail before any training

  const results: GameResult[] = [];
  const browser = await launchBrowser();
  try {
    for (const g of games) results.push(await learnGame(g, stepsOverride, seeds, outRoot, browser));
  } finally {
    await browser.close();
  }

  const pm = (f: Figures | null) => (f ? `${round(f.mean)} ± ${round(f.std)}` : '–');
  console.log(
    formatTable(
      ['game', 'steps', 'eval', 'PPO mean ± std', 'random', 'scripted', 'human-norm.', 'beats random', 'wall s'],
      results.map((r) => [
        r.game,
        r.steps,
        r.evalMode,
        pm(r.ppo),
        pm(r.random),
        pm(r.scripted),
        round(r.ppoHumanNormalised),
        r.beatsRandom ? 'yes' : 'no',
        round(r.wallSeconds, 0),
      ]),
    ),
  );
  console.log(
    `held-out seeds ${seeds[0]}–${seeds.at(-1)} (${seeds.length} per agent); runs in ${outRoot}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const trainSteps = results.reduce((a, r) => a + r.steps, 0);
  const trainSeconds = results.reduce((a, r) => a + r.trainSeconds, 0);
  const gymRateMean = mean(results.map((r) => r.gymStepsPerSec));
  console.log(
    JSON.stringify({
      bench: 'learn',
      seeds: seeds.length,
      games: results.map((r) => ({ ...r, ppoHumanNormalised: round(r.ppoHumanNormalised, 2) })),
      learn_games_beating_random: results.filter((r) => r.beatsRandom).length,
      learn_games_matching_scripted: results.filter((r) => r.matchesScripted).length,
      learn_mean_human_normalised: round(mean(results.map((r) => r.ppoHumanNormalised)), 2),
      // Training's env steps/s (acting and learning included) ÷ the gym's random-action steps/s, averaged per game.
      train_vs_gym_steps_per_s: round(mean(results.map((r) => r.trainStepsPerSec / r.gymStepsPerSec)), 3),
      train_steps_per_s: round(trainSteps / trainSeconds, 1),
      gym_steps_per_s_mean: round(gymRateMean, 1),
      load_average: os.loadavg()[0],
    }),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
