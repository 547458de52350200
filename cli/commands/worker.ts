import { QUEUES, type QueueName } from '../../jobs/queue';
import { type Command, intOption, stringOption, UsageError, valueFlags } from '../command';

/**
 * Takes jobs (suite-evaluation batches, submission verification) from the PostgreSQL job queue at
 * DATABASE_URL and plays them on this machine's browser. Any number may run, on any machines with
 * the same built games.
 */
export const workerCommand: Command = {
  name: 'worker',
  summary: 'Run evaluation and verification jobs from the PostgreSQL job queue (DATABASE_URL)',
  usage: `arcade-gym worker [--concurrency N] [--queues ${QUEUES.join(',')}] [--grace SECONDS] [--remote-browser ws://…] [--database-url postgres://…]`,
  options: valueFlags('concurrency', 'queues', 'grace', 'poll-ms', 'health-s', 'remote-browser', 'database-url'),
  async run({ values }) {
    const url = stringOption(values, 'database-url') ?? process.env.DATABASE_URL;
    if (!url) {
      throw new UsageError("a worker needs the queue's PostgreSQL server: set DATABASE_URL=postgres://… (the same as the site and `eval --queue` use)");
    }
    const queues = (stringOption(values, 'queues') ?? QUEUES.join(','))
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
    });
  },
};
