/**
 * The leaderboard's VerificationQueue on the job queue, on the site's own embedded database (the
 * zero-setup default): jobs wait with a position, are deduplicated while pending, run through the
 * in-process worker with their budget, and the queue goes idle when they are done.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../leaderboard/db';
import type { VerificationJob } from '../leaderboard/verify-queue';
import { siteJobQueue } from './site';
import { JobVerificationQueue } from './verify-queue';

describe('JobVerificationQueue on PGlite', () => {
  it('queues, reports positions, runs each submission once through the in-process worker, and goes idle', async () => {
    const database = await openDatabase({ dataDir: 'memory' });
    const jobs = await siteJobQueue(database);
    const queue = new JobVerificationQueue(jobs, database.db, { slots: 1, pollMs: 100, log: () => undefined });
    try {
      const job = (id: string): VerificationJob => ({ submissionId: id, owner: 'token:1', budgetMs: 30_000 });
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
      await jobs.close();
      await database.close();
    }
  });
});
