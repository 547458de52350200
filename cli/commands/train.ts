import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { getGame } from '../../gym/catalog';
import { launchBrowser } from '../../gym/browser/launch';
import { evaluateGame } from '../../gym/eval/evaluate';
import { makeVectorEnv, asFeatureVectorEnv } from '../../gym/vector';
import { intOption, stringOption, UsageError, type Command } from '../command';
import { formatTable } from '../format-table';

/**
 * Trains a policy on a game through the gym (verifier feature vectors), then evaluates it
 * against the random and scripted baselines on held-out seeds.
 */
export const trainCommand: Command = {
  name: 'train',
  summary: 'Train a PPO or GRPO policy on a game through the gym',
  usage:
    'arcade-gym train --game <id> [--algo ppo|grpo] [--backend webgpu|cpu|auto] [--observation vector|pixels] [--steps N] [--seed S] [--envs N] [--config ppo.json] [--eval-episodes N] --out dir/',
  options: {
    game: { type: 'string' },
    algo: { type: 'string', default: 'ppo' },
    backend: { type: 'string', default: 'auto' },
    steps: { type: 'string' },
    seed: { type: 'string' },
    envs: { type: 'string' },
    config: { type: 'string' },
    out: { type: 'string' },
    'eval-episodes': { type: 'string' },
    observation: { type: 'string', default: 'vector' },
  },
  async run({ values }) {
    const gameId = stringOption(values, 'game');
    if (!gameId) throw new UsageError('--game <id> is required');
    const out = stringOption(values, 'out');
    if (!out) throw new UsageError('--out <dir> is required (metrics.jsonl and checkpoints go there)');
    const algo = stringOption(values, 'algo') ?? 'ppo';
    if (algo !== 'ppo' && algo !== 'grpo') throw new UsageError(`--algo must be ppo or grpo, got "${algo}"`);
    const observation = stringOption(values, 'observation') ?? 'vector';
    if (observation !== 'vector' && observation !== 'pixels') throw new UsageError(`--observation must be vector or pixels, got "${observation}"`);
    const backend = stringOption(values, 'backend') ?? 'auto';
    if (backend !== 'webgpu' && backend !== 'cpu' && backend !== 'auto') throw new UsageError(`--backend must be webgpu, cpu or auto, got "${backend}"`);
    const game = getGame(gameId);
    const steps = intOption(values, 'steps', 20_000, 1);
    const seed = intOption(values, 'seed', 1);
    const num = intOption(values, 'envs', 4, 1);
    const evalEpisodes = intOption(values, 'eval-episodes', 3, 1);
    const configFile = stringOption(values, 'config');
    const overrides = (configFile ? JSON.parse(await (await import('node:fs/promises')).readFile(configFile, 'utf8')) : {}) as Record<string, unknown> & { network?: Record<string, unknown> };
    await mkdir(out, { recursive: true });

    const { train, grpo } = await import('../../gym/ppo');
    // Pixels: 84×84 grayscale bytes for the Nature-CNN (scaled by 1/255 in the network's encoder).
    const venv = makeVectorEnv({ game: gameId, num, seed, observation: [observation], pixels: { width: 84, height: 84, grayscale: true }, autoreset: 'same-step' });
    const env = asFeatureVectorEnv(venv, observation);
    const pixelNetwork = observation === 'pixels' ? { obsScale: 1 / 255, pixelLayout: 'hwc' as const } : {};
    const network = { network: { ...pixelNetwork, ...(overrides.network ?? {}) } };
    const numSteps = Math.max(8, Math.min(128, Math.floor(steps / num / 4)));
    const started = Date.now();
    const progress = (m: { update: number; globalStep: number; stepsPerSec: number; episodeReturnMean: number | null }) => {
      const ret = m.episodeReturnMean === null ? 'n/a' : m.episodeReturnMean.toFixed(1);
      process.stderr.write(`\r${algo} ${gameId}: update ${m.update}, ${m.globalStep}/${steps} steps, ${m.stepsPerSec.toFixed(0)} steps/s, mean return ${ret}   `);
    };
    const common = {
      env,
      obsShape: observation === 'pixels' ? [84, 84, 1] : [game.featureNames.length],
      numActions: game.manifest.preset.length,
      backend,
      onUpdate: progress,
      outDir: out,
    } as const;
    try {
      if (algo === 'ppo') await train({ ...common, config: { seed, totalTimesteps: steps, numSteps, ...overrides, ...network } });
      else await grpo({ ...common, config: { seed, totalTimesteps: steps, ...overrides, ...network } });
    } finally {
      process.stderr.write('\n');
      await env.close();
    }
    console.log(`trained ${algo} on ${gameId} for ${steps} steps in ${((Date.now() - started) / 1000).toFixed(0)} s; metrics and checkpoints in ${out}`);

    // Held-out seeds, far from the training seeds.
    const seeds = Array.from({ length: evalEpisodes }, (_, i) => 1_000_000 + seed * 100 + i);
    const browser = await launchBrowser();
    try {
      const rows = [];
      for (const agent of ['random', 'scripted', 'ppo']) {
        const r = await evaluateGame({ game, agent, seeds, browser, agentOptions: { checkpoint: path.join(out, 'policy.agckpt') } });
        rows.push([agent, r.episodes.length, `${r.meanScore.toFixed(1)} ± ${r.stdScore.toFixed(1)}`, r.meanLength.toFixed(1), r.normalised.toFixed(1)]);
      }
      console.log(formatTable(['agent', 'episodes', 'score (mean ± std)', 'length', 'normalised'], rows));
    } finally {
      await browser.close();
    }
  },
};
