/**
 * Baseline seeding as jobs (scripts/seed-db.ts on a PostgreSQL server): every missing baseline
 * gets its ticket and is enqueued at once as an `eval` run (one job per seed), so any worker on
 * the database may play it; each finished run then goes in the way every run does (intake, a
 * `verify` job, the replay, storeRun), in leaderboard/seed.ts's order (random before scripted).
 * This process runs a worker of its own on both queues, so seeding needs nothing running
 * elsewhere; other workers only make it faster.
 */
import type { Browser } from 'playwright-core';
import type { Catalog, EpisodeRecord } from '../gym/schema';
import type { Db } from '../leaderboard/db';
import { baselineTicket, runBaselines, settled, submitBaseline, type BaselineJob, type SeedReport } from '../leaderboard/seed';
import { verifyBudgetFromEnv, type IntakeDeps } from '../leaderboard/submissions';
import type { TicketJson } from '../leaderboard/tickets';
import { verifyAbortable } from '../leaderboard/verifier-browser';
import { verifySubmission, type VerifyEpisode } from '../leaderboard/verify-run';
import { enqueueEvalRun, evalRunRecords, waitForEvalRun } from './eval-run';
import { evalBatchHandler } from './handlers';
import type { JobQueue } from './queue';
import { JobVerificationQueue } from './verify-jobs';
import { Worker } from './worker';

export interface QueueSeedOptions {
  db: Db;
  catalog: Catalog;
  /** The job queue on the same database. */
  jobs: JobQueue;
  /** This process's browser: its worker plays and replays in it. */
  browser: Browser;
  baselines: BaselineJob[];
  /** Jobs of each queue this process runs at once (default 1; 0: leave them to other workers). */
  localWorkers?: number;
  /** How episodes are replayed (default: in `browser`). */
  verify?: VerifyEpisode;
  log?: (line: string) => void;
  progress?: (line: string) => void;
}

export async function seedThroughQueue(opts: QueueSeedOptions): Promise<Omit<SeedReport, 'skipped'>> {
  const { db, catalog, jobs, browser } = opts;
  const local = opts.localWorkers ?? 1;
  const verify: VerifyEpisode = opts.verify ?? ((record, signal) => verifyAbortable(record, browser, signal));
  const queue = new JobVerificationQueue(jobs, db, { slots: local, pollMs: 200, log: () => undefined });
  queue.start((job, signal) => verifySubmission({ db, verify }, job.submissionId, signal));
  const worker =
    local > 0
      ? new Worker({ jobs, queues: ['eval'], handlers: { eval: evalBatchHandler(async () => browser) }, concurrency: local, pollMs: 200, log: () => undefined })
      : null;
  await worker?.start();
  const intake: IntakeDeps = { db, catalog: () => catalog, queue, budget: verifyBudgetFromEnv() };
  try {
    // All of them on the queue first, so workers can share them; a baseline whose ticket or
    // enqueueing failed is reported by runBaselines like any other failure.
    const enqueued = new Map<BaselineJob, { ticket: TicketJson; runId: string } | Error>();
    for (const job of opts.baselines) {
      try {
        const ticket = await baselineTicket(db, catalog, job);
        const seeds = ticket.games.find((g) => g.gameId === job.game.manifest.id)?.seeds ?? [];
        const { runId } = await enqueueEvalRun(jobs, { games: [job.game], seedsOf: () => seeds, agent: job.agent, observation: ['state'], batchSize: 1 });
        enqueued.set(job, { ticket, runId });
      } catch (e) {
        enqueued.set(job, e instanceof Error ? e : new Error(String(e)));
      }
    }
    const queued = (job: BaselineJob) => {
      const q = enqueued.get(job)!;
      if (q instanceof Error) throw q;
      return q;
    };
    opts.log?.(`${opts.baselines.length} baseline${opts.baselines.length === 1 ? '' : 's'} queued as jobs (${local} local worker${local === 1 ? '' : 's'})`);
    return await runBaselines({
      jobs: opts.baselines,
      browser,
      ticket: async (job) => queued(job).ticket,
      play: async (job, _seeds, onEpisode) => {
        const { runId } = queued(job);
        await waitForEvalRun(jobs, runId, { pollMs: 200 });
        const records = (await evalRunRecords(jobs, runId)).map((r) => JSON.parse(r.record) as EpisodeRecord);
        for (const r of records) onEpisode(r);
        return records;
      },
      submit: async (job, ticket, records, trained) => settled(intake, (await submitBaseline(intake, job, ticket.id, records, trained)).submission.id),
      log: opts.log,
      progress: opts.progress,
    });
  } finally {
    await worker?.stop(0);
    await queue.close();
  }
}
