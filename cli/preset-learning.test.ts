/**
 * PPO must learn a real game through the real gym with that game's preset: 16,384 steps on
 * path-of-light (a puzzle; headless Chromium, virtual time, the verifier's feature vector, 8 envs)
 * must beat the random agent on 20 held-out seeds by more than 5 points. Everything is seeded (the
 * envs, the CPU learner, the policy's sampling), so the run is deterministic.
 *
 * Measured (seed 1): the training-window return goes 4.9 → 18 by 12k steps; evaluated (sampled, as
 * the preset says) PPO 21.6 ± 30.0 vs random 7.05 ± 5.4 on seeds 5,000,000–5,000,019; the whole
 * test takes ~110 s on a loaded 2-core machine. The same run with a learning rate of 1e-12 (a trainer
 * that does not learn) fails. PRESET_LEARN_* variables change the game, budget, rate, seeds or margin
 * for experiments.
 */
import { describe, expect, it } from 'vitest';
import { actionOptions, makeTrainingEnv } from './commands/train';
import { rolloutLength, TrainCommandConfig, loadTrainPreset, mergeLayers, resolvePpoInput } from '../gym/train-config';
import { getGame } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { CpuBackend } from '../gym/nn';
import { parsePpoConfig, savePolicy, train } from '../gym/ppo';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GAME = process.env.PRESET_LEARN_GAME ?? 'path-of-light';
const STEPS = Number(process.env.PRESET_LEARN_STEPS ?? 16_384);
const LR = process.env.PRESET_LEARN_LR ? Number(process.env.PRESET_LEARN_LR) : undefined;
const SEEDS = Array.from({ length: Number(process.env.PRESET_LEARN_EPISODES ?? 20) }, (_, i) => Number(process.env.PRESET_LEARN_SEED_BASE ?? 5_000_000) + i);
/** Absolute points above random's mean on the same seeds. */
const MARGIN = Number(process.env.PRESET_LEARN_MARGIN ?? 5);

describe(`PPO with the ${GAME} preset learns through the gym`, { timeout: 420_000 }, () => {
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
    const env = makeTrainingEnv(c);
    let result;
    try {
      result = await train({
        env,
        obsShape: [entry.featureNames.length],
        ...actionOptions(c, env),
        backend: new CpuBackend(),
        config: parsePpoConfig(input),
      });
    } finally {
      await env.close();
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
    const random = await evaluateGame({ game: entry, agent: 'random', seeds: SEEDS });
    console.log(
      `${GAME} ${STEPS} steps: training curve ${curve}; ` +
        `ppo ${ppo.meanScore} ± ${ppo.stdScore.toFixed(1)} vs random ${random.meanScore} ± ${random.stdScore.toFixed(1)}`,
    );
    expect(ppo.meanScore).toBeGreaterThan(random.meanScore + MARGIN);
  });
});
