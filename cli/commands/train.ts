import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getGame } from '../../gym/catalog';
import { launchBrowser } from '../../gym/browser';
import { describeActionSet } from '../../gym/actions';
import { ROOT } from '../../gym/paths';
import { configRecord, resolveTraining, TrainingSettingsError, evaluationSeeds, observationShape, startingPreset } from '../../gym/training-settings';
import { evaluateGame } from '../../gym/eval';
import { availableBaselines } from '../../gym/agents';
import { makeTrainingEnv, runPlanner } from '../../gym/vector';
import { type Command, intOption, stringOption, switchFlags, UsageError, valueFlags } from '../command';
import { formatTable } from '../format-table';
import { trainingProgress } from '../train-progress';
import { defaultTrainedAgentName, submitTrainedPolicy, TRAIN_SUBMIT_OPTIONS, trainSubmitPlan } from '../train-submit';

/**
 * Trains a policy on a game through the gym (verifier feature vectors or pixels), then
 * evaluates it against the baselines on held-out seeds. Every setting is in TrainCommandConfig
 * (gym/ppo/train-settings.ts) or the algorithm's config, starting from the game's preset (games/<id>/train.json,
 * gym/ppo/preset.ts); both are written to <out>/config.json and as the first line of metrics.jsonl.
 */
export const trainCommand: Command = {
  name: 'train',
  summary: 'Train a PPO or GRPO policy on a game through the gym',
  usage:
    'arcade-gym train --game <id> [--algo ppo|grpo] [--backend webgpu|cpu|auto] [--observation vector|pixels] [--steps N] [--seed S]\n' +
    '  [--envs N] [--config ppo.json] [--eval-episodes N] [--eval-mode greedy|sample] [--generic] --out dir/\n' +
    '  [--submit [--server URL] [--token T] [--agent NAME] [--ticket-seeds N] [--known-seeds [--queue [--batch N] [--workers N]]] [--wait-timeout S]]\n' +
    "Starts from the game's preset (games/<id>/train.json), or the generic agent (gym/ppo/generic-agent.ts) for a game\n" +
    '  without one and with --generic (--no-preset: the same); flags and --config override it.\n' +
    '--submit: then the final policy plays a live ticket of the game (as `eval --live`: the server plays the seeds it keeps hidden;\n' +
    '  --known-seeds: a ticket whose seeds it gives, played here as `eval --server` does, or as jobs with --queue),\n' +
    '  and the run goes to the leaderboard with its learning curve, settings, backend and checkpoint sha256; it exits 0 when the\n' +
    '  server accepts it, 2 when it refuses, 3 when it stores it with nothing ranked. --token defaults to $ARCADE_TOKEN, --server to $ARCADE_SERVER_URL or the local site,\n' +
    '  --agent to <user>-<algo>-<game>.',
  options: {
    ...valueFlags('game', 'algo', 'backend', 'steps', 'seed', 'envs', 'config', 'out', 'eval-episodes', 'observation', 'eval-mode'),
    ...switchFlags('generic', 'no-preset'),
    ...TRAIN_SUBMIT_OPTIONS,
  },
  async run({ values }) {
    const game = stringOption(values, 'game');
    if (!game) throw new UsageError('--game <id> is required');
    const out = stringOption(values, 'out');
    if (!out) throw new UsageError('--out <dir> is required (metrics.jsonl and checkpoints go there)');
    const episodes = values['eval-episodes'] === undefined ? undefined : intOption(values, 'eval-episodes', 3, 1);
    const loaded = startingPreset(game, !!values.generic || !!values['no-preset']);
    const flags = {
      game,
      algo: stringOption(values, 'algo'),
      backend: stringOption(values, 'backend'),
      observation: stringOption(values, 'observation'),
      totalTimesteps: values.steps === undefined ? undefined : intOption(values, 'steps', 0, 1),
      seed: values.seed === undefined ? undefined : intOption(values, 'seed', 0),
      numEnvs: values.envs === undefined ? undefined : intOption(values, 'envs', 0, 1),
      evaluation: { episodes, mode: stringOption(values, 'eval-mode') },
    };
    const configFile = stringOption(values, 'config');
    const overrides = (configFile ? JSON.parse(await readFile(configFile, 'utf8')) : {}) as Record<string, unknown>;
    let resolved;
    try {
      resolved = resolveTraining({ start: loaded, flags, overrides }, (f) => path.relative(ROOT, f));
    } catch (e) {
      if (e instanceof TrainingSettingsError) throw new UsageError(e.message);
      throw e;
    }
    for (const note of resolved.notes) console.warn(note);
    const c = resolved.command;
    const entry = getGame(c.game);
    // The game's own planner, when the actions are one of its action sets: an action set it lacks fails here, not after training.
    const planner = await runPlanner(c);
    const gameSpecific = resolved.gameSpecific;
    // Checked now: a flag mistake found after training would cost the whole run, and so would a baseline that cannot play.
    const submitPlan = trainSubmitPlan(values, defaultTrainedAgentName(c.algo, c.game));
    const { baselines, note: baselineNote } = availableBaselines(c.game, c.evaluation.baselines);
    if (baselineNote) console.log(baselineNote);
    await mkdir(out, { recursive: true });

    const { train, grpo, runDirectoryWriter, createBackend, actionOptions } = await import('../../gym/ppo');
    const presetPath = resolved.preset;
    const record = configRecord(resolved);
    await writeFile(path.join(out, 'config.json'), `${JSON.stringify(record, null, 2)}\n`);
    // The metrics file starts with the same resolved settings, so it stands on its own.
    await appendFile(path.join(out, 'metrics.jsonl'), `${JSON.stringify({ kind: 'config', ...record })}\n`);
    console.log(
      `training ${c.algo} on ${c.game} with ${presetPath ? `the preset ${presetPath}` : 'the generic agent (gym/ppo/generic-agent.ts)'}; ` +
        `settings in ${path.join(out, 'config.json')}`,
    );
    if (gameSpecific) {
      console.log(
        `game-specific: actions ${describeActionSet(c.actions)} are ${c.game}'s own decisions (games/${c.game}/decisions.ts), ` +
          "not the preset's keys read through the verifier's vector; config.json and a --submit say so",
      );
    }

    // Made here rather than by the trainer, so the run can say which backend "auto" became.
    const backend = await createBackend(c.backend);
    const env = makeTrainingEnv(c, planner);
    const started = Date.now();
    const common = {
      env,
      obsShape: observationShape(c, entry.featureNames.length),
      numActions: entry.manifest.preset.length,
      backend,
      onUpdate: trainingProgress(`${c.algo} ${c.game}`, c.totalTimesteps, env),
      writer: await runDirectoryWriter(out),
    } as const;
    try {
      if (resolved.ppo) await train({ ...common, ...actionOptions(c, getGame(c.game), planner, env), config: resolved.ppo });
      else await grpo({ ...common, config: resolved.grpo });
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
      for (const agent of [...baselines, 'ppo']) {
        const r = await evaluateGame({
          game: entry,
          agent,
          seeds,
          browser,
          agentOptions: agent === 'ppo' ? { checkpoint: path.join(out, 'policy.agckpt'), mode: c.evaluation.mode } : {},
        });
        rows.push([agent, r.episodes.length, `${r.meanScore.toFixed(1)} ± ${r.stdScore.toFixed(1)}`, r.meanLength.toFixed(1), r.normalised.toFixed(1)]);
      }
      console.log(formatTable(['agent', 'episodes', 'score (mean ± std)', 'length', 'normalised'], rows));
    } finally {
      await browser.close();
    }
    if (submitPlan) {
      await submitTrainedPolicy(
        {
          out,
          game: c.game,
          algorithm: c.algo,
          backend: backend.kind,
          totalTimesteps: c.totalTimesteps,
          observation: c.observation,
          mode: c.evaluation.mode,
          gameSpecific,
        },
        submitPlan,
      );
    }
  },
};
