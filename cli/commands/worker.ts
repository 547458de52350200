import { QUEUES, type QueueName } from '../../jobs/queue';
import { type Command, intOption, stringOption, UsageError, valueFlags } from '../command';

/**
 * Takes jobs (suite-evaluation batches, submission verification; with `--queues …,live`, live tickets)
 * from the PostgreSQL job queue at DATABASE_URL and plays them on this machine's browser. Any number
 * may run, on any machines with the same built games. A worker of the live queue serves the tickets it
 * hosts on a listener of its own (`--live-listen HOST:PORT`, default 127.0.0.1 and any free port),
 * which players and the site must reach (`--live-url` when they reach it by another address).
 */
/** What a worker takes unless told: live tickets need a listener their players reach, so they are asked for by name. */
const DEFAULT_QUEUES: QueueName[] = ['eval', 'verify'];

function liveListen(listen: string | undefined, url: string | undefined): { host?: string; port?: number; publicUrl?: string } {
  const out: { host?: string; port?: number; publicUrl?: string } = {};
  if (listen !== undefined) {
    const m = /^(.*):(\d+)$/.exec(listen);
    if (!m || Number(m[2]) > 65535) throw new UsageError(`--live-listen is "${listen}": give HOST:PORT (127.0.0.1:8790; port 0 for any free one)`);
    out.host = m[1].replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
    out.port = Number(m[2]);
  }
  if (url !== undefined) {
    if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new UsageError(`--live-url is "${url}": give the listener's base URL as players reach it (http://host:port)`);
    out.publicUrl = url;
  }
  return out;
}

export const workerCommand: Command = {
  name: 'worker',
  summary: 'Run evaluation and verification jobs from the PostgreSQL job queue (DATABASE_URL)',
  usage:
    `arcade-gym worker [--concurrency N] [--queues ${DEFAULT_QUEUES.join(',')}] [--grace SECONDS] [--remote-browser ws://…] [--database-url postgres://…]\n` +
    '                  [--queues …,live --live-tickets N --live-listen HOST:PORT --live-url http://…]',
  options: valueFlags('concurrency', 'queues', 'grace', 'poll-ms', 'health-s', 'remote-browser', 'database-url', 'live-tickets', 'live-listen', 'live-url'),
  async run({ values }) {
    const url = stringOption(values, 'database-url') ?? process.env.DATABASE_URL;
    if (!url) {
      throw new UsageError("a worker needs the queue's PostgreSQL server: set DATABASE_URL=postgres://… (the same as the site and `eval --queue` use)");
    }
    const queues = (stringOption(values, 'queues') ?? DEFAULT_QUEUES.join(','))
      .split(',')
      .map((q) => q.trim())
      .filter(Boolean);
    for (const q of queues) if (!(QUEUES as readonly string[]).includes(q)) throw new UsageError(`unknown queue "${q}" (${QUEUES.join(', ')})`);
    const { runWorkerProcess } = await import('../../jobs/run-worker');
    await runWorkerProcess({
      url,
      queues: queues as QueueName[],
      concurrency: intOption(values, 'concurrency', 1, 1),
      graceMs: intOption(values, 'grace', 30, 0) * 1000,
      pollMs: intOption(values, 'poll-ms', 1000, 50),
      healthMs: intOption(values, 'health-s', 30, 1) * 1000,
      remoteBrowser: stringOption(values, 'remote-browser'),
      liveTickets: intOption(values, 'live-tickets', 16, 1),
      liveListen: liveListen(stringOption(values, 'live-listen'), stringOption(values, 'live-url')),
    });
  },
};
