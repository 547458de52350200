/**
 * npm run bench:suite-learn — does one agent configuration learn every game? The generic agent
 * (gym/ppo/generic-agent.ts: one PPO configuration, the verifier's vector and the action mask,
 * nothing game-specific) is trained on each game with one training seed, then evaluated with the
 * random and scripted agents on the same held-out seeds at the game's official step budget; a
 * game with a game-specific preset (games/<id>/train.json) is trained with it too, for
 * generic_vs_preset. Two speed figures say what the learner costs on top of the gym: before each
 * run the same vector env is stepped with random actions drawn as training draws them (inside the
 * action mask), and train_vs_gym_steps_per_s is training's steps/s ÷ that; env_share_of_training
 * is the share of training's time spent waiting on the env, the same ratio on training's own
 * steps (a policy's moves can cost the game more or less than random ones).
 *
 *   LEARN_GAMES=snake,g2048   a subset (default: every game in the catalog), so the run can be split
 *   LEARN_STEPS=50000         env steps per game (default: the generic agent's budget, at most 100k)
 *   LEARN_SEEDS=20            held-out evaluation episodes per agent (default 20)
 *   LEARN_PRESETS=0           skip the game-specific presets (default: train them too)
 *   LEARN_OUT=dir             where each game's run goes (default: a temporary folder)
 *   LEARN_PPO='{"numSteps":32}'  a variant: PPO settings over the generic agent's (as `train --config`),
 *                             for trying a change on a few games before it goes into generic-agent.ts;
 *                             the table and JSON line then name it and are not the generic agent's
 *   LEARN_SMOKE=1             the smoke mode npm test runs: one game, a few hundred steps, 2 seeds
 *
 * Prints a table; the last line is one JSON object. "Beats random": the PPO mean exceeds random's
 * by more than twice the standard error of the difference. Human-normalised: agent ÷ human
 * reference × 100; the suite means are over the core suite.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildGames } from '../scripts/build-games';
import { formatTable } from '../cli/format-table';
import { getGame, loadCatalog } from '../gym/catalog';
import { launchBrowser } from '../gym/browser';
import { GENERIC_AGENT, trainPresetPath } from '../gym/training-settings';
import { humanNormalised, mean, median } from '../gym/stats';
import { listEnv, pm, positiveInt, resolveRun, round } from './learn-run';
import { learnGame, type GameResult } from './learn-game';
import { SMOKE } from './smoke';

const MAX_STEPS = 100_000;
/** Held-out: far from training seeds (1 + i), from `train`'s own evaluation seeds (1e6 + …) and from bench:learn's. */
const EVAL_SEED_BASE = 8_000_000;

interface SuiteRow {
  game: string;
  core: boolean;
  generic: GameResult;
  preset: GameResult | null;
  randomHumanNormalised: number;
  scriptedHumanNormalised: number | null;
}

async function main(): Promise<void> {
  const smoke = SMOKE || process.env.LEARN_SMOKE === '1';
  await buildGames();
  const all = loadCatalog().games.map((g) => g.manifest.id);
  const games = listEnv('LEARN_GAMES', smoke ? ['snake'] : all);
  for (const g of games) getGame(g); // unknown ids fail before any training
  const budget = Math.min(MAX_STEPS, GENERIC_AGENT.training.totalTimesteps as number);
  const steps = smoke ? 256 : process.env.LEARN_STEPS ? Math.min(MAX_STEPS, positiveInt('LEARN_STEPS', budget)) : budget;
  const seeds = Array.from({ length: smoke ? 2 : positiveInt('LEARN_SEEDS', 20) }, (_, i) => EVAL_SEED_BASE + i);
  const withPresets = !smoke && process.env.LEARN_PRESETS !== '0';
  const variant = ppoVariant(process.env.LEARN_PPO);
  // A bad setting fails here, whole, not as each game's one-line failure after the builds.
  if (variant) resolveRun({ game: games[0], seed: 1, totalTimesteps: steps, generic: true, ppoOverrides: variant });
  const outRoot = process.env.LEARN_OUT ? path.resolve(process.env.LEARN_OUT) : mkdtempSync(path.join(os.tmpdir(), 'arcade-suite-learn-'));
  const started = performance.now();

  const rows: SuiteRow[] = [];
  const failed: { game: string; error: string }[] = [];
  const browser = await launchBrowser();
  try {
    for (const game of games) {
      const manifest = getGame(game).manifest;
      const common = { maxSteps: MAX_STEPS, seeds, outRoot, browser, ...(smoke ? { trainingOverrides: { numEnvs: 2 } } : {}) };
      let generic: GameResult;
      try {
        generic = await learnGame(game, { ...common, stepsOverride: steps, generic: true, bothModes: true, ppoOverrides: variant });
      } catch (e) {
        // One game's failure is reported with the others' figures, not a lost run.
        failed.push({ game, error: e instanceof Error ? e.message.split('\n')[0] : String(e) });
        process.stderr.write(`${game} FAILED: ${failed.at(-1)!.error}\n`);
        continue;
      }
      process.stderr.write(`${game} generic done: ${JSON.stringify(generic)}\n`);
      let preset: GameResult | null = null;
      if (withPresets && trainPresetPath(game)) {
        // The preset's own budget, as bench:learn runs it.
        preset = await learnGame(game, { ...common, maxSteps: 300_000, stepsOverride: null });
        process.stderr.write(`${game} preset done: ${JSON.stringify(preset)}\n`);
      }
      const human = manifest.humanReference.score;
      rows.push({
        game,
        core: manifest.suites.includes('core'),
        generic,
        preset,
        randomHumanNormalised: humanNormalised(generic.random.mean, human),
        scriptedHumanNormalised: generic.scripted ? humanNormalised(generic.scripted.mean, human) : null,
      });
    }
  } finally {
    await browser.close();
  }

  console.log(
    formatTable(
      [
        'game',
        'generic PPO',
        'beats random',
        'game-specific preset',
        'random',
        'scripted',
        'human-norm. (PPO / random / scripted)',
        'train steps/s ÷ gym',
        'env share',
        'wall s',
      ],
      rows.map((r) => [
        r.game,
        pm(r.generic.ppo),
        r.generic.beatsRandom ? 'yes' : 'no',
        r.preset ? pm(r.preset.ppo) : '–',
        pm(r.generic.random),
        pm(r.generic.scripted),
        `${round(r.generic.ppoHumanNormalised)} / ${round(r.randomHumanNormalised)} / ${r.scriptedHumanNormalised === null ? '–' : round(r.scriptedHumanNormalised)}`,
        round(r.generic.trainStepsPerSec / r.generic.gymStepsPerSec, 2),
        round(r.generic.envShareOfTraining, 2),
        round(r.generic.wallSeconds + (r.preset?.wallSeconds ?? 0), 0),
      ]),
    ),
  );
  const core = rows.filter((r) => r.core);
  const wallSeconds = (performance.now() - started) / 1000;
  console.log(
    `generic agent${variant ? ` with ${JSON.stringify(variant)}` : ''}: ${steps} env steps per game, evaluated ${GENERIC_AGENT.training.evaluation ? JSON.stringify(GENERIC_AGENT.training.evaluation) : ''}; ` +
      `held-out seeds ${seeds[0]}–${seeds.at(-1)} (${seeds.length} per agent); runs in ${outRoot}; ${round(wallSeconds, 0)} s; ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const withPreset = rows.filter((r) => r.preset);
  console.log(
    JSON.stringify({
      bench: 'suite-learn',
      smoke,
      steps_per_game: steps,
      ppo_variant: variant ?? null,
      seeds: seeds.length,
      wall_seconds: round(wallSeconds, 0),
      suite_games: rows.length + failed.length,
      failed,
      suite_games_beating_random: rows.filter((r) => r.generic.beatsRandom).length,
      suite_mean_human_normalised: core.length ? round(mean(core.map((r) => r.generic.ppoHumanNormalised)), 2) : null,
      suite_median_human_normalised: core.length ? round(median(core.map((r) => r.generic.ppoHumanNormalised)), 2) : null,
      random_mean_human_normalised: core.length ? round(mean(core.map((r) => r.randomHumanNormalised)), 2) : null,
      // Generic PPO's mean score ÷ the game-specific preset's, per game with a preset.
      generic_vs_preset: Object.fromEntries(withPreset.map((r) => [r.game, round(r.generic.ppo.mean / r.preset!.ppo.mean, 3)])),
      train_vs_gym_steps_per_s: round(mean(rows.map((r) => r.generic.trainStepsPerSec / r.generic.gymStepsPerSec)), 3),
      env_share_of_training: round(mean(rows.map((r) => r.generic.envShareOfTraining)), 3),
      games: rows.map((r) => ({
        game: r.game,
        core: r.core,
        ppo: { mean: round(r.generic.ppo.mean, 2), std: round(r.generic.ppo.std, 2) },
        ppo_other_mode: r.generic.ppoOtherMode
          ? { mode: r.generic.ppoOtherMode.mode, mean: round(r.generic.ppoOtherMode.figures.mean, 2), std: round(r.generic.ppoOtherMode.figures.std, 2) }
          : null,
        random: { mean: round(r.generic.random.mean, 2), std: round(r.generic.random.std, 2) },
        scripted: r.generic.scripted ? { mean: round(r.generic.scripted.mean, 2), std: round(r.generic.scripted.std, 2) } : null,
        preset: r.preset ? { mean: round(r.preset.ppo.mean, 2), std: round(r.preset.ppo.std, 2), steps: r.preset.steps } : null,
        beats_random: r.generic.beatsRandom,
        human_normalised: round(r.generic.ppoHumanNormalised, 2),
        steps: r.generic.steps,
        train_steps_per_s: round(r.generic.trainStepsPerSec, 1),
        gym_steps_per_s: round(r.generic.gymStepsPerSec, 1),
        env_share_of_training: round(r.generic.envShareOfTraining, 3),
        wall_seconds: round(r.generic.wallSeconds, 0),
        out: r.generic.outDir,
      })),
      load_average: os.loadavg()[0],
    }),
  );
}

/** LEARN_PPO: a JSON object of PPO settings, or none; main() checks it against the PPO schema before any training. */
function ppoVariant(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new Error(`LEARN_PPO must be a JSON object of PPO settings, e.g. '{"numSteps":32}': ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`LEARN_PPO must be a JSON object of PPO settings, got ${raw}`);
  return parsed as Record<string, unknown>;
}

await main();
