/**
 * npm run bench:learn — does PPO learn the games with their presets? For each game of the
 * learning set: train PPO from games/<id>/train.json (at most 300k env steps), then evaluate the
 * policy (in the preset's evaluation mode), the random and the scripted agent on the same held-out
 * seeds at the game's official step budget. Before training, the same vector env is stepped with
 * random actions to measure the gym's own rate, so train_vs_gym_steps_per_s says what the learner
 * costs on top of the gym; env_share_of_training is the same question asked inside the run (the
 * share of training time spent waiting on the env, the rest being acting, wrappers and updates),
 * which does not depend on how the load drifts between the probe and the run. Under macro actions
 * (Wood Blocks' drops, Tetris' placements) a decision costs mostly per decision, not per key, and
 * random decisions need not press as many keys as a trained policy's (Wood Blocks: 6.25 against
 * 3.56), so train_vs_gym_same_work compares decisions/s for those games.
 *
 *   LEARN_GAMES=snake,g2048   a subset (default: the learning set below)
 *   LEARN_STEPS=50000         env steps per game (default: the preset's, capped at 300k)
 *   LEARN_SEEDS=20            held-out evaluation episodes per agent (default 20)
 *   LEARN_OBSERVATION=pixels  train on 84×84 pixels with the preset's pixel layer (Snake: keypoints over RGB;
 *                             without one, the Nature-CNN on grayscale; default: the preset's observation)
 *   LEARN_ENVS=4              envs per run (default: the preset's)
 *   LEARN_BACKEND=cpu         the learner's backend (cpu, webgpu or auto; default cpu)
 *   LEARN_OUT=dir             where each game's run goes (default: a temporary folder)
 *   LEARN_PROBE_STEPS=100     random-action steps per env for the gym's rate (default: the game's step budget,
 *                             so episode ends and autoresets count, as they do in training)
 *
 * Prints a table; the last line is one JSON object. "Beats random": the PPO mean exceeds random's
 * by more than twice the standard error of the difference; "matches scripted": it is not below the
 * scripted agent's mean by more than that.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildGames } from '../scripts/build-games';
import { formatTable } from '../cli/format-table';
import { getGame } from '../gym/catalog';
import { launchBrowser } from '../gym/browser';
import { mean } from '../gym/stats';
import { listEnv, pm, positiveInt, round } from './learn-run';
import { learnGame, type GameResult } from './learn-game';
import { smokeOr } from './smoke';

/** Snake, 2048, Tetris, a puzzle (path-of-light), two WebGL games (platformer, wood-blocks-3d). */
const LEARNING_SET = ['snake', 'g2048', 'tetris', 'path-of-light', 'platformer', 'wood-blocks-3d'];
const MAX_STEPS = 300_000;
/** Held-out: far from training seeds (1 + i) and from `train`'s own evaluation seeds (1e6 + …). */
const EVAL_SEED_BASE = 7_000_000;

async function main(): Promise<void> {
  const games = listEnv('LEARN_GAMES', smokeOr(LEARNING_SET, ['snake']));
  const stepsOverride = process.env.LEARN_STEPS ? Math.min(MAX_STEPS, positiveInt('LEARN_STEPS', MAX_STEPS)) : smokeOr(null, 256);
  const seeds = Array.from({ length: positiveInt('LEARN_SEEDS', smokeOr(20, 2)) }, (_, i) => EVAL_SEED_BASE + i);
  const outRoot = process.env.LEARN_OUT ? path.resolve(process.env.LEARN_OUT) : mkdtempSync(path.join(os.tmpdir(), 'arcade-learn-'));
  await buildGames();
  for (const g of games) getGame(g); // unknown ids fail before any training

  const results: GameResult[] = [];
  const browser = await launchBrowser();
  try {
    for (const g of games) {
      const r = await learnGame(g, { stepsOverride, maxSteps: MAX_STEPS, seeds, outRoot, browser });
      results.push(r);
      // Each game's figures as soon as it is done, so a long run stopped early still says what it measured.
      process.stderr.write(`${g} done: ${JSON.stringify(r)}\n`);
    }
  } finally {
    await browser.close();
  }

  console.log(
    formatTable(
      ['game', 'steps', 'actions', 'eval', 'PPO mean ± std', 'random', 'random (decisions)', 'scripted', 'human-norm.', 'beats random', 'wall s'],
      results.map((r) => [
        r.game,
        r.steps,
        r.actions,
        r.evalMode,
        pm(r.ppo),
        pm(r.random),
        pm(r.randomDecisions),
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
      // The same ratio with like work on both sides: per decision for games trained over macro decisions.
      train_vs_gym_same_work: round(mean(results.map((r) => r.trainVsGymPerDecision ?? r.trainStepsPerSec / r.gymStepsPerSec)), 3),
      train_steps_per_s: round(trainSteps / trainSeconds, 1),
      env_share_of_training: round(mean(results.map((r) => r.envShareOfTraining)), 3),
      gym_steps_per_s_mean: round(gymRateMean, 1),
      load_average: os.loadavg()[0],
    }),
  );
}

await main();
