/**
 * The leaderboard's VerificationQueue on the job queue, on the site's embedded database (the
 * zero-setup default) and on the PostgreSQL server of TEST_DATABASE_URL: jobs wait with a
 * position, are deduplicated while pending, take turns across tokens, run through the in-process
 * worker with their budget; a job retried after a crash stores its run once; on the embedded
 * database a job left active by a dead process is taken up again at start.
 */
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runs, submissions } from '../drizzle/schema';
import { getGame } from '../gym/catalog';
import { syncGames } from '../leaderboard/games';
import { RunSubmission } from '../leaderboard/submission-schema';
import { canonicalHash, DEFAULT_VERIFY_BUDGET, intake, loadSubmission } from '../leaderboard/submissions';
import { fakeCatalog, fakeRecord } from '../leaderboard/synthetic';
import { issueTicket, ticketJson } from '../leaderboard/tickets';
import { createToken } from '../leaderboard/tokens';
import type { JobRunner, VerificationJob } from '../leaderboard/verification-queue';
import { verifySubmission } from '../leaderboard/verify-run';
import { jobTestDrivers } from './test-drivers';
import { fetchVerifyInTurns } from './turns';
import { JobVerificationQueue } from './verify-jobs';

const job = (id: string, owner = 'token:1'): VerificationJob => ({ submissionId: id, owner, budgetMs: 30_000 });
const quiet = { pollMs: 50, log: () => undefined };

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; !(await ok()); ) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const driver of jobTestDrivers()) {
  describe(`${driver.name}: JobVerificationQueue`, () => {
    it('queues, reports positions, runs each submission once through the in-process worker, and goes idle', async () => {
      const { database, jobs, close } = await driver.open();
      const queue = new JobVerificationQueue(jobs, database.db, { slots: 1, ...quiet });
      try {
        await queue.enqueue(job('sub-a'));
        await queue.enqueue(job('sub-b'));
        await queue.enqueue(job('sub-a')); // already pending: not queued twice
        expect(await queue.status('sub-a')).toEqual({ state: 'queued', ahead: 0 });
        expect(await queue.status('sub-b')).toEqual({ state: 'queued', ahead: 1 });
        expect(await queue.status('sub-x')).toBeNull();

        const ran: string[] = [];
        const signals: AbortSignal[] = [];
        queue.start(async (j, signal) => {
          ran.push(j.submissionId);
          signals.push(signal);
          expect(j).toEqual(job(j.submissionId));
        });
        await queue.idle();
        expect(ran).toEqual(['sub-a', 'sub-b']);
        expect(signals.every((s) => !s.aborted)).toBe(true);
        expect(await queue.status('sub-a')).toBeNull();
        const [{ n }] = await jobs.sql.query<{ n: string }>(`SELECT count(*) AS n FROM pgboss.job WHERE name = 'verify' AND state = 'completed'`);
        expect(Number(n)).toBe(2);
      } finally {
        await queue.close();
        await close();
      }
    });

    it('takes turns across tokens: a token that sends one submission after another token’s many waits for one job, not the backlog', async () => {
      const { database, jobs, close } = await driver.open();
      const queue = new JobVerificationQueue(jobs, database.db, { slots: 1, ...quiet });
      try {
        const started: string[] = [];
        let releaseFirst = () => {};
        const first = new Promise<void>((r) => (releaseFirst = r));
        queue.start(async (j) => {
          started.push(j.submissionId);
          if (j.submissionId === 'a1') await first;
        });
        for (const id of ['a1', 'a2', 'a3', 'a4']) await queue.enqueue(job(id, 'token:A'));
        await until('a1 to start', () => started.length === 1);
        await queue.enqueue(job('b1', 'token:B'));
        // A has a job running and B has none: B's goes first, then A's in their order.
        expect(await queue.status('a1')).toEqual({ state: 'running' });
        expect(await queue.status('b1')).toEqual({ state: 'queued', ahead: 0 });
        expect(await queue.status('a2')).toEqual({ state: 'queued', ahead: 1 });
        expect(await queue.status('a4')).toEqual({ state: 'queued', ahead: 3 });
        releaseFirst();
        await queue.idle();
        expect(started).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
      } finally {
        await queue.close();
        await close();
      }
    });

    it('hands each job to one claimer when many claim at once', async () => {
      const { database, jobs, close } = await driver.open();
      const queue = new JobVerificationQueue(jobs, database.db, { slots: 1, ...quiet });
      try {
        for (let i = 0; i < 6; i++) await queue.enqueue(job(`c${i}`, `token:${i % 2}`));
        const claims = await Promise.all(Array.from({ length: 8 }, () => fetchVerifyInTurns(jobs.sql)));
        const ids = claims.flat().map((j) => (j.data as VerificationJob).submissionId);
        expect(ids.sort()).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
        expect(await fetchVerifyInTurns(jobs.sql)).toEqual([]);
      } finally {
        await close();
      }
    });

    it('a verification retried after a crash mid-job stores the run once, with no unique-key error', async () => {
      const { database, jobs, close } = await driver.open();
      const db = database.db;
      const queue = new JobVerificationQueue(jobs, db, { slots: 1, ...quiet });
      try {
        // A built game (the worker checks it has the build); records that need no replay.
        const game = getGame('snake');
        const catalog = fakeCatalog([game]);
        await syncGames(db, catalog);
        const token = await createToken(db, { name: 'retry-test' });
        const ticket = ticketJson(await issueTicket(db, catalog, { tokenId: token.id, purpose: 'evaluation', game: game.manifest.id, seedsPerGame: 3 }));
        const records = ticket.games[0].seeds.map((seed) => fakeRecord(game, seed, seed % 7));
        const sub = RunSubmission.parse({
          id: 'run-retried-1',
          agent: 'retried-agent',
          settings: { observation: ['state'] },
          ticket: ticket.id,
          episodes: records,
        });
        const answer = await intake(
          { db, catalog: () => catalog, queue, budget: DEFAULT_VERIFY_BUDGET },
          { tokenId: token.id, admin: false },
          sub,
          canonicalHash(sub),
        );
        expect(answer.status).toBe(202);
        const id = answer.body.submission.id;
        const before = (await loadSubmission(db, id))!;

        let attempts = 0;
        const verify: JobRunner = async (j, signal) => {
          attempts++;
          await verifySubmission({ db, verify: async (record) => ({ ok: true, replayed: record }) }, j.submissionId, signal);
          if (attempts === 1) {
            // The worker dies after storing the run, before it marks the submission done: the row
            // is left as it was mid-job, and the job fails back to the queue for a retry.
            await db
              .update(submissions)
              .set({ status: 'verifying', body: before.body, runId: null, result: null, finishedAt: null })
              .where(eq(submissions.id, id));
            throw new Error('the worker died');
          }
        };
        queue.start(verify);
        await queue.idle();

        const after = (await loadSubmission(db, id))!;
        expect(after.result).not.toHaveProperty('error');
        expect(after.status).toBe('accepted');
        const stored = await db.select({ id: runs.id }).from(runs).where(eq(runs.clientId, sub.id));
        expect(stored).toHaveLength(1);
        expect(after.runId).toBe(stored[0].id);
        expect(after.result).toMatchObject({ run: { id: stored[0].id, episodes: 3 } });
        expect(attempts).toBe(1); // the retry found the run stored and replayed nothing
        expect((await db.select({ n: count() }).from(runs))[0].n).toBe(1);
        const [{ retries }] = await jobs.sql.query<{ retries: number }>(`SELECT retry_count AS retries FROM pgboss.job WHERE name = 'verify'`);
        expect(Number(retries)).toBe(1);
      } finally {
        await queue.close();
        await close();
      }
    });

    if (driver.name === 'pglite') {
      it('takes up, at start, a job an earlier process of the embedded database left active', async () => {
        const { database, jobs, close } = await driver.open();
        const queue = new JobVerificationQueue(jobs, database.db, { slots: 1, ...quiet });
        try {
          await queue.enqueue(job('orphan'));
          // Claimed by a process that then died: without being released it would wait out its lease (90 s).
          expect(await fetchVerifyInTurns(jobs.sql)).toHaveLength(1);
          expect(await queue.status('orphan')).toEqual({ state: 'running' });
          const ran: string[] = [];
          queue.start(async (j) => {
            ran.push(j.submissionId);
          });
          await queue.idle();
          expect(ran).toEqual(['orphan']);
        } finally {
          await queue.close();
          await close();
        }
      });
    }
  });
}
