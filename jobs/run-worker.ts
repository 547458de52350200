/**
 * A worker process (`arcade-gym worker`): the queue on DATABASE_URL, one browser (launched here,
 * or a remote browser host), the leaderboard database for verification, and a graceful stop on
 * SIGTERM/SIGINT.
 */
import type { Browser } from 'playwright-core';
import { openDatabase, type Database } from '../leaderboard/db';
import { VerifierBrowsers } from '../leaderboard/verifier-browser';
import { browserJobRunner } from '../leaderboard/verify-run';
import { browserProvider, evalBatchHandler, verifyHandler } from './handlers';
import { openJobQueue, type QueueName } from './queue';
import { postgresJobsSql } from './sql';
import { JobVerificationQueue, onceStored } from './verify-jobs';
import { startLiveHost } from './live-jobs';
import { loadCatalog } from '../gym/catalog';
import type { LiveListenOptions } from '../leaderboard/live-listener';
import { verifyBudgetFromEnv } from '../leaderboard/submissions';
import { Worker, type JobHandler } from './worker';

export interface WorkerProcessOptions {
  url: string;
  queues: QueueName[];
  concurrency: number;
  graceMs: number;
  pollMs?: number;
  healthMs?: number;
  /** A Playwright browser server (`arcade-gym browser-host`) to play on instead of a local Chromium. */
  remoteBrowser?: string;
  /** With the `live` queue: live tickets hosted at once, and where their listener listens and is reached. */
  liveTickets?: number;
  liveListen?: LiveListenOptions;
}

export async function runWorkerProcess(opts: WorkerProcessOptions): Promise<void> {
  // Listening from the start: a SIGTERM while the worker is still starting stops it just as cleanly.
  let stopping: ((signal: string) => void) | null = null;
  let signalled: string | null = null;
  const onSignal = (signal: string) => {
    process.once(signal, () => process.exit(130));
    if (stopping) stopping(signal);
    else signalled = signal;
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  const jobs = await openJobQueue(await postgresJobsSql(opts.url));
  let database: Database | null = null;
  const local = browserProvider();
  const remote: { browser: Promise<Browser> | null } = { browser: null };
  const browser = opts.remoteBrowser
    ? () => (remote.browser ??= import('playwright-core').then(({ chromium }) => chromium.connect(opts.remoteBrowser!)))
    : () => local.get();
  const handlers: Partial<Record<QueueName, JobHandler>> = {};
  if (opts.queues.includes('eval')) handlers.eval = evalBatchHandler(browser);
  const verifiers = new VerifierBrowsers();
  if (opts.queues.includes('verify') || opts.queues.includes('live')) database = await openDatabase({ url: opts.url });
  if (opts.queues.includes('verify')) handlers.verify = verifyHandler(onceStored(database!.db, browserJobRunner(database!.db, verifiers)));
  // Live tickets are held for as long as they are played: a worker of their own, so they never take these slots.
  const queues = opts.queues.filter((q) => q !== 'live');
  const worker = queues.length ? new Worker({ jobs, queues, handlers, concurrency: opts.concurrency, pollMs: opts.pollMs, healthMs: opts.healthMs }) : null;
  const live = opts.queues.includes('live')
    ? await startLiveHost({
        jobs,
        // A live ticket's run is submitted here when it closes, and verified by whichever worker takes its job.
        intake: { db: database!.db, catalog: loadCatalog, queue: new JobVerificationQueue(jobs, database!.db), budget: verifyBudgetFromEnv() },
        tickets: opts.liveTickets,
        maxSessions: opts.liveTickets,
        listen: opts.liveListen,
        pollMs: opts.pollMs,
      })
    : null;
  if (live) console.log(`[worker ${live.worker.id}] live tickets at ${live.listener.url}`);
  await worker?.start();
  await new Promise<void>((resolve) => {
    stopping = (signal: string) => {
      console.log(`[worker ${worker?.id ?? live!.worker.id}] ${signal}: stopping gracefully (again to stop at once)`);
      // Live tickets are handed back at once (their episodes in play played again on fresh seeds), for another worker to go on with.
      void Promise.all([worker?.stop(opts.graceMs), live?.stop()]).finally(resolve);
    };
    if (signalled) stopping(signalled);
  });
  await local.close();
  if (remote.browser) await (await remote.browser).close().catch(() => undefined);
  await verifiers.close();
  await jobs.close();
  await database?.close();
}
