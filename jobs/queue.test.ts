/**
 * The queue on the embedded PGlite, in one process (the zero-setup default): pg-boss runs on the
 * PGlite adapter, and an evaluation through the queue writes the same records, in the same order,
 * as `evaluateGame` does in one process.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { getGame } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { canonicalJson } from '../gym/schema';
import { runQueuedEval } from './queued-eval';
import { memoryPglite, openJobQueue } from './queue';
import { pgliteJobsSql } from './sql';

describe('job queue on PGlite', () => {
  it('leases a job, completes it inside a transaction, and retries it once its lease expires', async () => {
    const jobs = await openJobQueue(pgliteJobsSql(await memoryPglite()), { maintenanceIntervalSeconds: 1 });
    try {
      const id = await jobs.boss.send('eval', { n: 1 }, { expireInSeconds: 1, retryDelay: 0 });
      const [first] = await jobs.boss.fetch('eval', { includeMetadata: true });
      expect(first.id).toBe(id);
      expect(await jobs.boss.fetch('eval')).toEqual([]); // leased: nobody else gets it
      // The lease runs out: maintenance fails it back, and the next fetch is a new attempt.
      let again: Awaited<ReturnType<typeof jobs.boss.fetch>> = [];
      for (let i = 0; i < 40 && !again.length; i++) {
        await new Promise((r) => setTimeout(r, 250));
        again = await jobs.boss.fetch('eval', { includeMetadata: true });
      }
      expect(again[0]?.id).toBe(id);
      const ok = await jobs.sql.transaction(async (tx) => {
        await tx.query('CREATE TEMP TABLE IF NOT EXISTS t (x int)');
        // pg-boss's typings say void; it returns { jobs, requested, affected }.
        return (await jobs.boss.complete('eval', id!, { done: true }, { db: tx.bossDb() as never })) as unknown as { affected: number };
      });
      expect(ok.affected).toBe(1);
      expect((await jobs.boss.getJobById('eval', id!))?.state).toBe('completed');
    } finally {
      await jobs.close();
    }
  });

  it('an evaluation through the queue writes the JSONL of a single-process evaluation, byte for byte', async () => {
    const games = [getGame('snake'), getGame('g2048')];
    const seeds = [3, 4, 5];
    const expected: string[] = [];
    for (const game of games) {
      await evaluateGame({ game, agent: 'random', seeds, maxSteps: 12, onEpisode: (r) => void expected.push(canonicalJson(r)) });
    }
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const { results } = await runQueuedEval({
      games,
      seedsOf: () => seeds,
      agent: 'random',
      observation: ['state', 'vector'],
      maxSteps: 12,
      batchSize: 2,
      localWorkers: 2,
      out,
    });
    out.end();
    expect(Buffer.concat(chunks).toString('utf8')).toBe(expected.map((l) => `${l}\n`).join(''));
    expect(results.map((r) => [r.gameId, r.episodes.length])).toEqual([
      ['snake', 3],
      ['g2048', 3],
    ]);
  });
});
