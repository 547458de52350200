import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { gamesInSuite, getGame } from '../../gym/catalog';
import { launchBrowser } from '../../gym/browser/launch';
import { evaluateGame, type GameEvaluation } from '../../gym/eval/evaluate';
import { mean } from '../../gym/eval/stats';
import { canonicalJson } from '../../gym/schema/records';
import { ObservationKind } from '../../gym/env/options';
import { intOption, stringOption, UsageError, type Command } from '../command';
import { formatTable } from '../format-table';
import { agentOptionsFromCli } from '../../gym/agents/ui-tars/options';

export const evalCommand: Command = {
  name: 'eval',
  summary: 'Evaluate an agent on a game or a suite and write episode records',
  usage:
    'arcade-gym eval (--game <id> | --suite <name>) --agent random|scripted|openai|ppo [--episodes N | --seeds N] [--seed S] [--max-steps N] [--observation state,vector] [--out file.jsonl]\n' +
    '       openai agent: --model NAME [--base-url URL] [--api-key KEY (default $OPENAI_API_KEY)] [--history K] [--agent-config agent.json]\n' +
    '       ppo agent: --checkpoint runs/<game>/policy.agckpt',
  options: {
    game: { type: 'string' },
    suite: { type: 'string' },
    agent: { type: 'string', default: 'random' },
    episodes: { type: 'string' },
    seeds: { type: 'string' },
    seed: { type: 'string' },
    'max-steps': { type: 'string' },
    observation: { type: 'string' },
    out: { type: 'string' },
    // Agent settings (the openai agent's; see gym/agents/ui-tars/options.ts).
    model: { type: 'string' },
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    history: { type: 'string' },
    'agent-config': { type: 'string' },
    checkpoint: { type: 'string' },
  },
  async run({ values }) {
    const gameId = stringOption(values, 'game');
    const suite = stringOption(values, 'suite');
    if (!gameId === !suite) throw new UsageError('give exactly one of --game <id> or --suite <name>');
    const games = gameId ? [getGame(gameId)] : gamesInSuite(suite!);
    if (values.episodes !== undefined && values.seeds !== undefined) throw new UsageError('--episodes and --seeds mean the same thing here; give one');
    const count = intOption(values, values.seeds !== undefined ? 'seeds' : 'episodes', 3, 1);
    const firstSeed = intOption(values, 'seed', 0);
    const maxSteps = values['max-steps'] === undefined ? undefined : intOption(values, 'max-steps', 100, 1);
    const observation = (stringOption(values, 'observation') ?? 'state,vector').split(',').map((k) => {
      const parsed = ObservationKind.safeParse(k.trim());
      if (!parsed.success) throw new UsageError(`unknown observation kind "${k}" (state, vector, pixels, screenshot)`);
      return parsed.data;
    });
    const agent = stringOption(values, 'agent') ?? 'random';
    const seeds = Array.from({ length: count }, (_, i) => firstSeed + i);

    const outPath = stringOption(values, 'out');
    if (outPath) await mkdir(path.dirname(path.resolve(outPath)), { recursive: true });
    const out = outPath ? createWriteStream(outPath) : null;
    const browser = await launchBrowser();
    const results: GameEvaluation[] = [];
    const started = Date.now();
    try {
      for (const game of games) {
        let done = 0;
        const result = await evaluateGame({
          game,
          agent,
          agentOptions: { ...agentOptionsFromCli(values), ...(typeof values.checkpoint === 'string' ? { checkpoint: values.checkpoint } : {}) },
          seeds,
          observation,
          maxSteps,
          browser,
          onEpisode: (record) => {
            done++;
            process.stderr.write(`\r${game.manifest.id}: episode ${done}/${seeds.length} (score ${record.totals.score}, ${record.totals.length} steps)   `);
            out?.write(canonicalJson(record) + '\n');
          },
        });
        process.stderr.write('\n');
        results.push(result);
      }
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => (out ? out.end(resolve) : resolve()));
    }

    const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
    console.log(formatTable(
      ['game', 'agent', 'episodes', 'score (mean ± std)', 'length', 'human', 'normalised'],
      results.map((r) => [r.gameId, r.agent, r.episodes.length, `${fmt(r.meanScore)} ± ${fmt(r.stdScore)}`, fmt(r.meanLength), getGame(r.gameId).manifest.humanReference.score, fmt(r.normalised)]),
    ));
    for (const r of results) {
      if (r.agentStats) console.log(`${r.gameId} ${r.agent}: ${Object.entries(r.agentStats).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    }
    if (results.length > 1) console.log(`\nsuite ${suite}: mean normalised score ${fmt(mean(results.map((r) => r.normalised)))} over ${results.length} games`);
    console.log(`\n${results.reduce((a, r) => a + r.episodes.length, 0)} episodes in ${((Date.now() - started) / 1000).toFixed(1)} s${outPath ? `; records written to ${outPath}` : ''}`);
  },
};
