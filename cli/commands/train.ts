import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getGame } from '../../gym/catalog';
import { launchBrowser } from '../../gym/browser/launch';
import { VectorFlatObservation } from '../../gym/core/wrappers/observation';
import { evaluateGame } from '../../gym/eval/evaluate';
import { makeVectorEnv } from '../../gym/vector';
import { intOption, stringOption, UsageError, type Command } from '../command';
import { formatTable } from '../format-table';
import { evaluationSeeds, observationShape, rolloutLength, TrainCommandConfig } from './train-config';

/**
 * Trains a policy on a game through the gym (verifier feature vectors or pixels), then
 * evaluates it against the baselines on held-out seeds. Every setting is in TrainCommandConfig
 * (train-config.ts) or the algorithm's config; both are written to <out>/config.json.
 */
export const trainCommand: Command = {
  name: 'train',
  summary: 'Train a PPO or GRPO policy on a game through the gym',
  usage:
    'arcade-gym train --game <id> [--algo ppo|grpo] [--backend webgpu|cpu|auto] [--observation vector|pixels] [--steps N] [--seed S] [--envs N] [--config ppo.json] [--eval-episodes N] --out dir/',
  options: {
    game: { type: 'string' },
    algo: { type: 'string' },
    backend: { type: 'string' },
    steps: { type: 'string' },
    seed: { type: 'string' },
    envs: { type: 'string' },
    config: { type: 'string' },
    out: { type: 'string' },
    'eval-episodes': { type: 'string' },
    observation: { type: 'string' },
  },
  async run({ values }) {
    const game = stringOption(values, 'game');
    if (!game) throw new UsageError('--game <id> is required');
    const out = stringOption(values, 'out');
    if (!out) throw new UsageError('--out <dir> is required (metrics.jsonl and checkpoints go there)');
    const episodes = values['eval-episodes'] === undefined ? undefined : intOption(values, 'eval-episodes', 3, 1);
    const parsed = TrainCommandConfig.safeParse({
      game,
      algo: stringOption(values, 'algo'),
      backend: stringOption(values, 'backend'),
      observation: stringOption(values, 'observation'),
      totalTimesteps: values.steps === undefined ? undefined : intOption(values, 'steps', 0, 1),
      seed: values.seed === undefined ? undefined : intOption(values, 'seed', 0),
      numEnvs: values.envs === undefined ? undefined : intOption(values, 'envs', 0, 1),
      evaluation: episodes === undefined ? undefined : { episodes },
    });
    if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => i.message).join('\n'));
    const c = parsed.data;
    const entry = getGame(c.game);
    const configFile = stringOption(values, 'config');
    const overrides = (configFile ? JSON.parse(await readFile(configFile, 'utf8')) : {}) as Record<string, unknown> & {
      network?: Record<string, unknown>;
    };
    await mkdir(out, { recursive: true });

    const { train, grpo, parsePpoConfig, parseGrpoConfig, runDirectoryWriter } = await import('../../gym/ppo');
    const pixelNetwork = c.observation === 'pixels' ? { obsScale: 1 / 255, pixelLayout: 'hwc' as const } : {};
    const network = { network: { ...pixelNetwork, ...(overrides.network ?? {}) } };
    const algoConfig =
      c.algo === 'ppo'
        ? parsePpoConfig({ seed: c.seed, totalTimesteps: c.totalTimesteps, numSteps: rolloutLength(c), ...overrides, ...network })
        : parseGrpoConfig({ seed: c.seed, totalTimesteps: c.totalTimesteps, ...overrides, ...network });
    await writeFile(path.join(out, 'config.json'), `${JSON.stringify({ command: c, [c.algo]: algoConfig }, null, 2)}\n`);

    const venv = makeVectorEnv({
      game: c.game,
      numEnvs: c.numEnvs,
      seed: c.seed,
      observation: [c.observation],
      pixels: c.pixels,
      autoreset: c.autoreset,
    });
    const env = new VectorFlatObservation(venv, c.observation);
    const started = Date.now();
    const progress = (m: { update: number; globalStep: number; stepsPerSec: number; episodeReturnMean: number | null }) => {
      const ret = m.episodeReturnMean === null ? 'n/a' : m.episodeReturnMean.toFixed(1);
      process.stderr.write(
        `\r${c.algo} ${c.game}: update ${m.update}, ${m.globalStep}/${c.totalTimesteps} steps, ${m.stepsPerSec.toFixed(0)} steps/s, mean return ${ret}   `,
      );
    };
    const common = {
      env,
      obsShape: observationShape(c, entry.featureNames.length),
      numActions: entry.manifest.preset.length,
      backend: c.backend,
      onUpdate: progress,
      writer: await runDirectoryWriter(out),
    } as const;
    try {
      if (c.algo === 'ppo') await train({ ...common, config: algoConfig });
      else await grpo({ ...common, config: algoConfig });
    } finally {
      process.stderr.write('\n');
      await env.close();
    }
    console.log(
      `trained ${c.algo} on ${c.game} for ${c.totalTimesteps} steps in ${((Date.now() - started) / 1000).toFixed(0)} s; metrics and checkpoints in ${out}`,
    );

    const seeds = evaluationSeeds(c);
    const browser = await launchBrowser();
    try {
      const rows = [];
      for (const agent of [...c.evaluation.baselines, 'ppo']) {
        const r = await evaluateGame({ game: entry, agent, seeds, browser, agentOptions: { checkpoint: path.join(out, 'policy.agckpt') } });
        rows.push([
          agent,
          r.episodes.length,
          `${r.meanScore.toFixed(1)} ± ${r.stdScore.toFixed(1)}`,
          r.meanLength.toFixed(1),
          r.normalised.toFixed(1),
        ]);
      }
      console.log(formatTable(['agent', 'episodes', 'score (mean ± std)', 'length', 'normalised'], rows));
    } finally {
      await browser.close();
    }
  },
};
