import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gamesInSuite, getGame } from '../../gym/catalog';
import type { CatalogEntry } from '../../gym/catalog-schema';
import { ApiCallError, callApi, defaultServerUrl, ticketSidecar } from '../../leaderboard/client';
import { TicketJson } from '../../leaderboard/ticket-schema';
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
    '       for the leaderboard, on seeds the server draws: add --server URL --token T (a new ticket), or --ticket ID;\n' +
    '         the ticket fixes seeds and settings, and its id is written beside --out (default runs/<ticket>.jsonl) for `submit`\n' +
    '       openai agent: --model NAME [--base-url URL] [--api-key KEY (default $OPENAI_API_KEY)] [--history K] [--agent-config agent.json]\n' +
    '       ppo agent: --checkpoint runs/<game>/policy.agckpt\n' +
    '       as jobs: --queue [--batch N] (workers on DATABASE_URL play them; without it, --workers N in this process)',
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
    // Distributed evaluation (jobs/): batches on the job queue.
    queue: { type: 'boolean' },
    batch: { type: 'string' },
    workers: { type: 'string' },
    // Leaderboard tickets.
    ticket: { type: 'string' },
    server: { type: 'string' },
    token: { type: 'string' },
  },
  async run({ values }) {
    const gameId = stringOption(values, 'game');
    const suite = stringOption(values, 'suite');
    if (values.episodes !== undefined && values.seeds !== undefined) throw new UsageError('--episodes and --seeds mean the same thing here; give one');
    const countGiven = values.seeds !== undefined || values.episodes !== undefined;
    const count = intOption(values, values.seeds !== undefined ? 'seeds' : 'episodes', 3, 1);
    const ticket = await ticketFor(values, { gameId, suite, seedsPerGame: countGiven ? count : undefined });
    if (!ticket && !gameId === !suite) throw new UsageError('give exactly one of --game <id> or --suite <name>');
    const games = ticket ? ticketGames(ticket) : gameId ? [getGame(gameId)] : gamesInSuite(suite!);
    const firstSeed = intOption(values, 'seed', 0);
    const maxSteps = values['max-steps'] === undefined ? undefined : intOption(values, 'max-steps', 100, 1);
    const observation = (stringOption(values, 'observation') ?? 'state,vector').split(',').map((k) => {
      const parsed = ObservationKind.safeParse(k.trim());
      if (!parsed.success) throw new UsageError(`unknown observation kind "${k}" (state, vector, pixels, screenshot)`);
      return parsed.data;
    });
    const agent = stringOption(values, 'agent') ?? 'random';
    const ownSeeds = Array.from({ length: count }, (_, i) => firstSeed + i);
    const seedsOf = (game: CatalogEntry) => ticket?.games.find((g) => g.gameId === game.manifest.id)?.seeds ?? ownSeeds;

    const outPath = stringOption(values, 'out') ?? (ticket ? path.join('runs', `${ticket.id}.jsonl`) : undefined);
    if (outPath) await mkdir(path.dirname(path.resolve(outPath)), { recursive: true });
    if (ticket && outPath) await writeFile(ticketSidecar(outPath), `${JSON.stringify(ticket, null, 2)}\n`);
    const out = outPath ? createWriteStream(outPath) : null;
    const started = Date.now();
    const queued = values.queue ? await queuedEval(values, { games, seedsOf, agent, observation, maxSteps, out }) : null;
    const browser = queued ? null : await launchBrowser();
    const results: GameEvaluation[] = [];
    try {
      for (const game of queued ? [] : games) {
        let done = 0;
        const seeds = seedsOf(game);
        const result = await evaluateGame({
          game,
          agent,
          agentOptions: { ...agentOptionsFromCli(values), ...(typeof values.checkpoint === 'string' ? { checkpoint: values.checkpoint } : {}) },
          seeds,
          observation,
          maxSteps,
          browser: browser!,
          onEpisode: (record) => {
            done++;
            process.stderr.write(`\r${game.manifest.id}: episode ${done}/${seeds.length} (score ${record.totals.score}, ${record.totals.length} steps)   `);
            out?.write(`${canonicalJson(record)}\n`);
          },
        });
        process.stderr.write('\n');
        results.push(result);
      }
      results.push(...(queued ?? []));
    } finally {
      await browser?.close();
      await new Promise<void>((resolve) => (out ? out.end(resolve) : resolve()));
    }

    const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
    console.log(
      formatTable(
        ['game', 'agent', 'episodes', 'score (mean ± std)', 'length', 'human', 'normalised'],
        results.map((r) => [
          r.gameId,
          r.agent,
          r.episodes.length,
          `${fmt(r.meanScore)} ± ${fmt(r.stdScore)}`,
          fmt(r.meanLength),
          getGame(r.gameId).manifest.humanReference.score,
          fmt(r.normalised),
        ]),
      ),
    );
    for (const r of results) {
      if (r.agentStats)
        console.log(
          `${r.gameId} ${r.agent}: ${Object.entries(r.agentStats)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        );
    }
    if (results.length > 1) console.log(`\nsuite ${suite}: mean normalised score ${fmt(mean(results.map((r) => r.normalised)))} over ${results.length} games`);
    console.log(
      `\n${results.reduce((a, r) => a + r.episodes.length, 0)} episodes in ${((Date.now() - started) / 1000).toFixed(1)} s${outPath ? `; records written to ${outPath}` : ''}`,
    );
    if (ticket && outPath) console.log(`Ticket ${ticket.id} (expires ${ticket.expiresAt}); submit with:  npx arcade-gym submit ${outPath} --agent NAME`);
  },
};

/**
 * The ticket to play, if this is a leaderboard evaluation: `--ticket ID` (read back from the
 * server), or a new one for the game or suite when `--server` or `--token` is given.
 */
async function ticketFor(values: Record<string, unknown>, ask: { gameId?: string; suite?: string; seedsPerGame?: number }): Promise<TicketJson | null> {
  const id = stringOption(values, 'ticket');
  const serverGiven = stringOption(values, 'server');
  const tokenGiven = stringOption(values, 'token');
  if (!id && !serverGiven && !tokenGiven) return null;
  if (values.seed !== undefined || values['max-steps'] !== undefined)
    throw new UsageError('a ticket fixes the seeds and the step budget: drop --seed and --max-steps');
  const token = tokenGiven ?? process.env.ARCADE_TOKEN;
  if (!token) throw new UsageError('a ticket needs an API token: pass --token or set ARCADE_TOKEN (create one with `npx arcade-gym token create`)');
  const server = (serverGiven ?? defaultServerUrl()).replace(/\/+$/, '');
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  try {
    if (id) {
      if (ask.gameId || ask.suite) throw new UsageError('--ticket already says which games to play: drop --game/--suite');
      const { body } = await callApi<{ ticket: unknown }>(`${server}/api/tickets/${encodeURIComponent(id)}`, { method: 'GET', headers });
      const ticket = TicketJson.parse(body.ticket);
      if (ticket.used) throw new UsageError(`ticket ${id} was already used by a submission; ask for a new one`);
      return ticket;
    }
    if (!ask.gameId === !ask.suite) throw new UsageError('give exactly one of --game <id> or --suite <name> to ask the server for a ticket');
    const request = { ...(ask.gameId ? { game: ask.gameId } : { suite: ask.suite }), ...(ask.seedsPerGame ? { seedsPerGame: ask.seedsPerGame } : {}) };
    const { body } = await callApi<{ ticket: unknown }>(`${server}/api/tickets`, { method: 'POST', headers, body: JSON.stringify(request) });
    const ticket = TicketJson.parse(body.ticket);
    const seeds = ticket.games.reduce((a, g) => a + g.seeds.length, 0);
    console.error(
      `Ticket ${ticket.id} from ${server}: ${seeds} seed${seeds === 1 ? '' : 's'} on ${ticket.games.length} game${ticket.games.length === 1 ? '' : 's'}, to submit before ${ticket.expiresAt}`,
    );
    return ticket;
  } catch (e) {
    if (e instanceof ApiCallError) throw new UsageError(`could not get a ticket (${e.status ? `${e.status} ` : ''}${e.code}): ${e.message}`);
    throw e;
  }
}

/** The ticket's games as built here: they must be the builds the server drew the ticket for. */
function ticketGames(ticket: TicketJson): CatalogEntry[] {
  return ticket.games.map((t) => {
    const game = getGame(t.gameId);
    const m = game.manifest;
    if (m.version !== t.gameVersion || game.verifierChecksum !== t.verifierChecksum) {
      throw new UsageError(
        `${t.gameId} here is ${m.version} (verifier ${game.verifierChecksum.slice(0, 12)}…), the ticket's is ${t.gameVersion} (${t.verifierChecksum.slice(0, 12)}…): update and rebuild the games (npm run build:games)`,
      );
    }
    if (m.stepBudget !== t.stepBudget || m.msPerStep !== t.msPerStep) {
      throw new UsageError(
        `${t.gameId}: the ticket's official settings (${t.stepBudget} steps × ${t.msPerStep} ms) differ from this build's (${m.stepBudget} × ${m.msPerStep})`,
      );
    }
    return game;
  });
}

/** `--queue`: the same evaluation as jobs (jobs/queued-eval.ts), with progress while workers play it. */
async function queuedEval(
  values: Record<string, unknown>,
  run: {
    games: CatalogEntry[];
    seedsOf: (g: CatalogEntry) => number[];
    agent: string;
    observation: ObservationKind[];
    maxSteps?: number;
    out: NodeJS.WritableStream | null;
  },
): Promise<GameEvaluation[]> {
  const { runQueuedEval } = await import('../../jobs/queued-eval');
  const url = process.env.DATABASE_URL;
  if (!url) console.error('No DATABASE_URL: the queue runs on an embedded database, with workers in this process (--workers)');
  const { results } = await runQueuedEval({
    ...run,
    out: run.out as import('node:stream').Writable | null,
    agentOptions: { ...agentOptionsFromCli(values), ...(typeof values.checkpoint === 'string' ? { checkpoint: values.checkpoint } : {}) },
    batchSize: intOption(values, 'batch', 5, 1),
    url,
    localWorkers: intOption(values, 'workers', 2, 1),
    onProgress: (p) => process.stderr.write(`\rqueue: ${p.done}/${p.episodes} episodes, ${p.batchesDone}/${p.batches} batches done, ${p.running} running   `),
  });
  process.stderr.write('\n');
  return results;
}
