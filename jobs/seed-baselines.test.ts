/**
 * Baseline seeding as jobs (jobs/seed-baselines.ts, what scripts/seed-db.ts does on a server):
 * the baseline is played as `eval` jobs, submitted, verified as a `verify` job by replay, and
 * stored ranked; the records are the ones a single-process seed plays. On PGlite this process
 * does all of it; on PostgreSQL the seeding process runs no worker and another worker (another
 * machine's) plays and verifies everything.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { episodes, runs, tickets } from '../drizzle/schema';
import { getGame, loadCatalog } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { canonicalJson } from '../gym/schema';
import { useBrowser } from '../gym/testing';
import { syncGames } from '../leaderboard/games';
import { baselineRunId, missingBaselines } from '../leaderboard/seed';
import { BASELINE_SEED_COUNT } from '../leaderboard/baselines';
import { verifyAbortable } from '../leaderboard/verifier-browser';
import { verifySubmission } from '../leaderboard/verify-run';
import { evalBatchHandler, verifyHandler } from './handlers';
import { JOBS_SCHEMA } from './schema';
import { seedThroughQueue } from './seed-baselines';
import { jobTestDrivers } from './test-drivers';
import { onceStored } from './verify-jobs';
import { Worker } from './worker';

const gym = useBrowser();
let browser: Browser;

beforeAll(async () => {
  browser = await gym.browser();
});

for (const driver of jobTestDrivers()) {
  const elsewhere = driver.name === 'postgres';
  describe(`${driver.name}: seeding baselines as jobs`, () => {
    it(elsewhere
      ? 'another worker on the database plays and verifies the baseline the seed queued'
      : 'the seeding process plays and verifies the baseline on its own queue', async () => {
      const { database, jobs, close } = await driver.open();
      const db = database.db;
      const catalog = loadCatalog();
      const snake = getGame('snake');
      const replay = (record: Parameters<typeof verifyAbortable>[0], signal?: AbortSignal) => verifyAbortable(record, browser, signal);
      const other = elsewhere
        ? new Worker({
            jobs,
            id: 'other-machine',
            queues: ['eval', 'verify'],
            handlers: {
              eval: evalBatchHandler(async () => browser),
              verify: verifyHandler(onceStored(db, (job, signal) => verifySubmission({ db, verify: replay }, job.submissionId, signal))),
            },
            pollMs: 100,
            log: () => undefined,
          })
        : null;
      try {
        await syncGames(db, catalog);
        await other?.start();
        const { jobs: baselines } = await missingBaselines(db, [snake], ['random']);
        const report = await seedThroughQueue({ db, catalog, jobs, browser, baselines, localWorkers: elsewhere ? 0 : 1, verify: replay });
        expect(report).toEqual({ ran: 1, failed: [] });
        expect((await missingBaselines(db, [snake], ['random'])).jobs).toEqual([]);

        // One eval job per ticket seed, then one verify job.
        const batches = await jobs.sql.query<{ worker: string }>(`SELECT worker FROM ${JOBS_SCHEMA}.eval_batches`);
        expect(batches).toHaveLength(BASELINE_SEED_COUNT);
        const verified = await jobs.sql.query<{ worker: string }>(
          `SELECT output->>'worker' AS worker FROM pgboss.job WHERE name = 'verify' AND state = 'completed'`,
        );
        expect(verified).toHaveLength(1);
        if (elsewhere) expect([...batches, ...verified].every((b) => b.worker === 'other-machine')).toBe(true);

        // Stored ranked, on the ticket's seeds, and played exactly as a single-process seed plays them.
        const [run] = await db
          .select({ id: runs.id, ticketId: runs.ticketId })
          .from(runs)
          .where(and(isNull(runs.tokenId), eq(runs.clientId, baselineRunId('random', snake))));
        const stored = await db.select({ seed: episodes.seed, ranked: episodes.ranked }).from(episodes).where(eq(episodes.runId, run.id));
        expect(stored.map((e) => e.ranked)).toEqual(Array(BASELINE_SEED_COUNT).fill(true));
        const [ticket] = await db.select({ games: tickets.games }).from(tickets).where(eq(tickets.id, run.ticketId!));
        const seeds = ticket.games[0].seeds;
        expect(stored.map((e) => e.seed).sort()).toEqual([...seeds].sort());
        const played = await jobs.sql.query<{ record: string }>(`SELECT record FROM ${JOBS_SCHEMA}.eval_episodes ORDER BY seed_index`);
        const here = await evaluateGame({ game: snake, agent: 'random', seeds, observation: ['state'], browser });
        expect(played.map((p) => p.record)).toEqual(here.episodes.map((e) => canonicalJson(e)));
      } finally {
        await other?.stop(0);
        await close();
      }
    }, 300_000);
  });
}
