/**
 * PPO must learn real games through the real gym with each game's preset, on 20 held-out seeds,
 * beating the random agent by a margin. Everything is seeded (the envs, the CPU learner, the
 * policy's sampling), so each run is deterministic.
 *
 * - path-of-light (a puzzle; its keys observed as afterstates, the scorer network, 8 envs on batched
 *   pages), 8,192 steps, margin 150 points. Measured (seed 1): the training-window return goes
 *   4.9 → 275 by 8k steps; evaluated greedy (as the preset says) PPO 288.0 ± 27.1 vs random
 *   7.05 ± 5.4 on seeds 5,000,000–5,000,019 (the scripted agent averages 183); ~95 s on a loaded
 *   2-core machine. Over the verifier's features this preset used to reach 21.6 after 16k steps.
 * - tetris (placement decisions observed as afterstates, the scorer network), 40,000 primitive
 *   steps, margin 100 points (one cleared line) over random placements, the stronger random
 *   baseline. Measured with the CLI (seed 1, 10 seeds from 1,000,100): the window return leaves 0
 *   after ~28k steps and reaches ~1,000; PPO 1,350 ± 528 vs random 0. This test's own run (seeds from
 *   5,000,000): 1,400 ± 716 sampled, 2,195 ± 569 greedy (the preset's mode now) vs random placements
 *   5 ± 22.4; 7–9 min on a loaded 2-core machine.
 *
 * - wood-blocks-3d (WebGL; block drops observed as afterstates, a page per env, each drop one drag
 *   since 1.1.0), 8,192 steps, margin 30 points over random drops. This test's own run at 1.1.0: the
 *   window return goes 14 → 125 by 8k decisions; PPO 148.9 ± 28.0 greedy vs random drops 15.9 ± 4.4;
 *   8 min on a 2-core machine with a training run beside it. (At 1.0.0, a drop pressed key by key:
 *   29 → 70 by 2.6k decisions, PPO 94.3 ± 46.6 vs 29.6 ± 5.3.)
 * - platformer (WebGL; its keys observed as afterstates simulated with the game's physics, 8 envs on
 *   batched pages), 4,096 steps, margin 200 points. This test's own run: the window return goes
 *   91 → 268 by 4k steps; PPO 374.5 ± 44.0 greedy vs random 74.1 ± 29.1; ~3.5 min on a 2-core
 *   machine. Over the verifier's features the window took 30k steps to reach 240–260 and stayed there.
 *
 * PRESET_LEARN_* variables run one game instead, with another budget, rate, seeds or margin, for
 * experiments.
 */
import { describe, expect, it } from 'vitest';
import { makeTrainingEnv, runPlanner } from '../gym/vector';
import { actionOptions, parsePpoConfig, savePolicy, train } from '../gym/ppo';
import { rolloutLength, TrainCommandConfig, loadTrainPreset, mergeLayers, resolvePpoInput } from '../gym/training-settings';
import { getGame } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { CpuBackend } from '../gym/nn';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const env = process.env;
const CASES: { game: string; steps: number; margin: number }[] = env.PRESET_LEARN_GAME
  ? [{ game: env.PRESET_LEARN_GAME, steps: Number(env.PRESET_LEARN_STEPS ?? 16_384), margin: Number(env.PRESET_LEARN_MARGIN ?? 5) }]
  : [
      { game: 'path-of-light', steps: 8_192, margin: 150 },
      { game: 'tetris', steps: 40_000, margin: 100 },
      { game: 'wood-blocks-3d', steps: 8_192, margin: 30 },
      { game: 'platformer', steps: 4_096, margin: 200 },
    ];
const LR = env.PRESET_LEARN_LR ? Number(env.PRESET_LEARN_LR) : undefined;
const SEEDS = Array.from({ length: Number(env.PRESET_LEARN_EPISODES ?? 20) }, (_, i) => Number(env.PRESET_LEARN_SEED_BASE ?? 5_000_000) + i);

for (const { game: GAME, steps: STEPS, margin: MARGIN } of CASES) {
  describe(`PPO with the ${GAME} preset learns through the gym`, { timeout: 900_000 }, () => {
    it(`beats the random agent by more than ${MARGIN} points after ${STEPS} steps`, async () => {
      const entry = getGame(GAME);
      const { preset } = loadTrainPreset(GAME);
      const c = TrainCommandConfig.parse(mergeLayers({ game: GAME, seed: 1, backend: 'cpu' }, preset.training, { totalTimesteps: STEPS }));
      const { input } = resolvePpoInput({
        preset,
        overrides: LR === undefined ? {} : { learningRate: LR },
        seed: 1,
        totalTimesteps: STEPS,
        numEnvs: c.numEnvs,
        fallbackNumSteps: rolloutLength(c),
      });
      const planner = await runPlanner(c);
      const venv = makeTrainingEnv(c, planner);
      let result;
      try {
        result = await train({
          env: venv,
          obsShape: [entry.featureNames.length],
          ...actionOptions(c, getGame(c.game), planner, venv),
          backend: new CpuBackend(),
          config: parsePpoConfig(input),
        });
      } finally {
        await venv.close();
      }
      const curve = result.metrics.map((m) => `${m.globalStep}:${m.episodeReturnMean?.toFixed(1)}`).join(' ');
      const dir = mkdtempSync(path.join(os.tmpdir(), 'preset-learning-'));
      const checkpoint = path.join(dir, 'policy.agckpt');
      await savePolicy(checkpoint, result.agent);

      const ppo = await evaluateGame({
        game: entry,
        agent: 'ppo',
        seeds: SEEDS,
        agentOptions: { checkpoint, backend: 'cpu', mode: c.evaluation.mode },
      });
      // Over macro decisions, random picks uniformly among the same decisions (random keys do worse).
      const random = await evaluateGame({
        game: entry,
        agent: 'random',
        seeds: SEEDS,
        agentOptions: c.actions.kind === 'preset' ? {} : { actions: c.actions },
      });
      console.log(
        `${GAME} ${STEPS} steps: training curve ${curve}; ` +
          `ppo ${ppo.meanScore} ± ${ppo.stdScore.toFixed(1)} vs random ${random.meanScore} ± ${random.stdScore.toFixed(1)}`,
      );
      expect(ppo.meanScore).toBeGreaterThan(random.meanScore + MARGIN);
    });
  });
}
