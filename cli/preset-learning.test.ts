/**
 * PPO must learn real games through the real gym with each game's preset, on 20 held-out seeds,
 * beating the random agent by a margin. Everything is seeded (the envs, the CPU learner, the
 * policy's sampling), so each run is deterministic.
 *
 * - path-of-light: its keys observed as afterstates (the scorer network, 8 envs on batched pages).
 * - tetris: placement decisions observed as afterstates; the margin is one cleared line over random
 *   placements, the stronger random baseline.
 * - wood-blocks-3d (WebGL): block drops observed as afterstates, a page per env.
 * - platformer (WebGL): its keys observed as afterstates simulated with the game's physics.
 *
 * Each budget is the shortest at which the measured run cleared its margin with room to spare; the
 * runs behind them (returns, scores, wall time) are in each game's TRAINING.md, "Its learning test".
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
