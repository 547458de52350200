import path from 'node:path';
import { gamesInSuite, getGame } from '../../gym/catalog';
import type { TicketJson } from '../../leaderboard/ticket-schema';
import { ObservationKind } from '../../gym/schema';
import { type Command, intOption, QUEUE_FLAGS, stringOption, switchFlags, UsageError, valueFlags } from '../command';
import { agentOptionsFromCli } from '../../gym/agents';
import { drawTicket, readTicket, serverAuth, ticketGames, ticketSeedsOf } from '../leaderboard-ticket';
import { playEvaluation, printEvaluation } from '../play-evaluation';
import { playLive } from '../play-live';

export const evalCommand: Command = {
  name: 'eval',
  summary: 'Evaluate an agent on a game or a suite and write episode records',
  usage:
    'arcade-gym eval (--game <id> | --suite <name>) --agent random|scripted|openai|ppo [--episodes N | --seeds N] [--seed S] [--max-steps N] [--observation state,vector] [--out file.jsonl]\n' +
    '       for the leaderboard, on seeds the server draws: add --server URL --token T (a new ticket), or --ticket ID;\n' +
    '         the ticket fixes seeds and settings, and its id is written beside --out (default runs/<ticket>.jsonl) for `submit`\n' +
    '       openai agent: --model NAME [--base-url URL] [--api-key KEY (default $OPENAI_API_KEY)] [--history K] [--agent-config agent.json]\n' +
    '       ppo agent: --checkpoint runs/<game>/policy.agckpt [--backend cpu|webgpu|auto (default cpu)] [--mode greedy|sample (default greedy)]\n' +
    '       as jobs: --queue [--batch N] (workers on DATABASE_URL play them; without it, --workers N in this process)\n' +
    '       live: --live --name NAME --server URL --token T: the server plays a live ticket on seeds it keeps, this sends the actions,\n' +
    '         and the server submits the run under NAME [--step-deadline-ms N] [--wait-timeout S]',
  options: {
    ...valueFlags('game', 'suite', 'episodes', 'seeds', 'seed', 'max-steps', 'observation', 'out'),
    agent: { type: 'string', default: 'random' },
    // Agent settings (the openai agent's; see gym/agents/ui-tars/options.ts).
    ...valueFlags('model', 'base-url', 'api-key', 'history', 'agent-config', 'checkpoint', 'backend', 'mode'),
    ...QUEUE_FLAGS,
    // Leaderboard tickets.
    ...valueFlags('ticket', 'server', 'token'),
    ...switchFlags('live'),
    ...valueFlags('name', 'step-deadline-ms', 'wait-timeout'),
  },
  async run({ values }) {
    const gameId = stringOption(values, 'game');
    const suite = stringOption(values, 'suite');
    if (values.live) return evalLive(values, gameId, suite);
    for (const flag of ['name', 'step-deadline-ms', 'wait-timeout'])
      if (values[flag] !== undefined) throw new UsageError(`--${flag} is for live tickets (--live); drop it`);
    if (values.episodes !== undefined && values.seeds !== undefined) throw new UsageError('--episodes and --seeds mean the same thing here; give one');
    const countGiven = values.seeds !== undefined || values.episodes !== undefined;
    const count = intOption(values, values.seeds !== undefined ? 'seeds' : 'episodes', 3, 1);
    const ticket = await ticketFor(values, { gameId, suite, seedsPerGame: countGiven ? count : undefined });
    if (!ticket && !gameId === !suite) throw new UsageError('give exactly one of --game <id> or --suite <name>');
    const games = ticket ? ticketGames(ticket) : gameId ? [getGame(gameId)] : gamesInSuite(suite!);
    const firstSeed = intOption(values, 'seed', 0);
    const maxSteps = values['max-steps'] === undefined ? undefined : intOption(values, 'max-steps', 100, 1);
    const observation = observationOption(values);
    const agent = stringOption(values, 'agent') ?? 'random';
    const ownSeeds = Array.from({ length: count }, (_, i) => firstSeed + i);
    const outPath = stringOption(values, 'out') ?? (ticket ? path.join('runs', `${ticket.id}.jsonl`) : undefined);
    const started = Date.now();
    const results = await playEvaluation({
      games,
      seedsOf: ticket ? ticketSeedsOf(ticket) : () => ownSeeds,
      agent,
      agentOptions: { ...agentOptionsFromCli(values), ...ppoOptions(values) },
      observation,
      maxSteps,
      outPath,
      ticket,
      queue: values.queue
        ? { url: process.env.DATABASE_URL, batchSize: intOption(values, 'batch', 5, 1), localWorkers: intOption(values, 'workers', 2, 1) }
        : null,
    });
    printEvaluation(results, suite);
    console.log(
      `\n${results.reduce((a, r) => a + r.episodes.length, 0)} episodes in ${((Date.now() - started) / 1000).toFixed(1)} s${outPath ? `; records written to ${outPath}` : ''}`,
    );
    if (ticket && outPath) console.log(`Ticket ${ticket.id} (expires ${ticket.expiresAt}); submit with:  npx arcade-gym submit ${outPath} --agent NAME`);
  },
};

function observationOption(values: Record<string, unknown>): ObservationKind[] {
  return (stringOption(values, 'observation') ?? 'state,vector').split(',').map((k) => {
    const parsed = ObservationKind.safeParse(k.trim());
    if (!parsed.success) throw new UsageError(`unknown observation kind "${k}" (state, vector, pixels, screenshot)`);
    return parsed.data;
  });
}

/** `eval --live`: a live ticket, played on the server; nothing is written here, the server keeps the records. */
async function evalLive(values: Record<string, unknown>, gameId: string | undefined, suite: string | undefined): Promise<void> {
  for (const flag of ['ticket', 'seed', 'max-steps', 'out', 'episodes', 'queue'])
    if (values[flag] !== undefined && values[flag] !== false)
      throw new UsageError(`--${flag} does not apply to a live ticket (the server holds its seeds, settings and records); drop it`);
  if (!gameId === !suite) throw new UsageError('give exactly one of --game <id> or --suite <name>');
  const name = stringOption(values, 'name');
  if (!name) throw new UsageError('--live needs --name NAME: the leaderboard name the server submits the run under');
  const auth = serverAuth(values, 'a live ticket');
  await playLive(auth, {
    gameId,
    suite,
    seedsPerGame: values.seeds === undefined ? undefined : intOption(values, 'seeds', 3, 1),
    name,
    agent: stringOption(values, 'agent') ?? 'random',
    agentOptions: { ...agentOptionsFromCli(values), ...ppoOptions(values) },
    observation: observationOption(values),
    stepDeadlineMs: values['step-deadline-ms'] === undefined ? undefined : intOption(values, 'step-deadline-ms', 300_000, 1000),
    waitTimeoutS: intOption(values, 'wait-timeout', 600, 1),
  });
}

/** The ppo agent's flags: the policy file, the backend it runs on, and whether it acts greedily or samples. */
function ppoOptions(values: Record<string, unknown>): Record<string, unknown> {
  const checkpoint = stringOption(values, 'checkpoint');
  const backend = stringOption(values, 'backend');
  const mode = stringOption(values, 'mode');
  if (backend !== undefined && values.agent !== 'ppo') throw new UsageError("--backend is the ppo agent's (the tensor backend its policy runs on); drop it");
  if (mode !== undefined && values.agent !== 'ppo') throw new UsageError("--mode is the ppo agent's (greedy or sampled actions); drop it");
  if (mode !== undefined && mode !== 'greedy' && mode !== 'sample') throw new UsageError(`--mode must be greedy or sample, got "${mode}"`);
  return { ...(checkpoint ? { checkpoint } : {}), ...(backend ? { backend } : {}), ...(mode ? { mode } : {}) };
}

/**
 * The ticket to play, if this is a leaderboard evaluation: `--ticket ID` (read back from the
 * server), or a new one for the game or suite when `--server` or `--token` is given.
 */
async function ticketFor(values: Record<string, unknown>, ask: { gameId?: string; suite?: string; seedsPerGame?: number }): Promise<TicketJson | null> {
  const id = stringOption(values, 'ticket');
  if (!id && !stringOption(values, 'server') && !stringOption(values, 'token')) return null;
  if (values.seed !== undefined || values['max-steps'] !== undefined)
    throw new UsageError('a ticket fixes the seeds and the step budget: drop --seed and --max-steps');
  const auth = serverAuth(values, 'a ticket');
  if (!id) return drawTicket(auth, ask);
  if (ask.gameId || ask.suite) throw new UsageError('--ticket already says which games to play: drop --game/--suite');
  return readTicket(auth, id);
}
