/** The in-process verification queue: turns across tokens, budgets that free a slot, positions. */
import { describe, expect, it } from 'vitest';
import { BudgetSpentError, InProcessVerificationQueue, type VerificationJob } from './verification-queue';

const job = (submissionId: string, owner: string, budgetMs = 10_000): VerificationJob => ({ submissionId, owner, budgetMs });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('InProcessVerificationQueue', () => {
  it('lets tokens take turns: another token waits for one job, not for all of the first token’s', async () => {
    const q = new InProcessVerificationQueue({ slots: 1 });
    const started: string[] = [];
    await q.enqueue(job('a1', 'A'));
    await q.enqueue(job('a2', 'A'));
    await q.enqueue(job('a3', 'A'));
    await q.enqueue(job('b1', 'B'));
    expect(await q.status('b1')).toEqual({ state: 'queued', ahead: 1 });
    expect(await q.status('a3')).toEqual({ state: 'queued', ahead: 3 });
    q.start(async (j) => {
      started.push(j.submissionId);
      await sleep(5);
    });
    expect(await q.status('a1')).toEqual({ state: 'running' });
    await q.idle();
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(await q.status('a1')).toBeNull();
    await q.close();
  });

  it('prefers a token with nothing running when a slot frees', async () => {
    const q = new InProcessVerificationQueue({ slots: 2 });
    const started: string[] = [];
    const release = new Map<string, () => void>();
    q.start((j) => {
      started.push(j.submissionId);
      return new Promise<void>((r) => release.set(j.submissionId, r));
    });
    for (const id of ['a1', 'a2', 'a3']) await q.enqueue(job(id, 'A'));
    expect(started).toEqual(['a1', 'a2']);
    await q.enqueue(job('b1', 'B'));
    release.get('a1')!();
    await sleep(10);
    // a3 was waiting longer, but B has nothing running.
    expect(started).toEqual(['a1', 'a2', 'b1']);
    for (const id of ['a2', 'b1']) release.get(id)!();
    await sleep(10);
    release.get('a3')!();
    await q.idle();
    await q.close();
  });

  it('aborts a job past its budget and frees its slot even if the job ignores the signal', async () => {
    const q = new InProcessVerificationQueue({ slots: 1, graceMs: 100 });
    const seen: { id: string; at: number; reason?: unknown }[] = [];
    const t0 = Date.now();
    q.start(async (j, signal) => {
      seen.push({ id: j.submissionId, at: Date.now() - t0 });
      if (j.submissionId === 'slow') {
        await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
        seen.push({ id: 'slow-aborted', at: Date.now() - t0, reason: signal.reason });
        await sleep(5_000); // a job that does not stop when told
      }
    });
    await q.enqueue(job('slow', 'A', 300));
    await q.enqueue(job('quick', 'B'));
    await q.idle().catch(() => undefined);
    await sleep(0);
    const quick = seen.find((s) => s.id === 'quick')!;
    const aborted = seen.find((s) => s.id === 'slow-aborted')!;
    expect(aborted.reason).toBeInstanceOf(BudgetSpentError);
    expect(aborted.at).toBeGreaterThanOrEqual(290);
    // Started after the budget and the grace, long before the slow job would have returned.
    expect(quick.at).toBeGreaterThanOrEqual(390);
    expect(quick.at).toBeLessThan(2_000);
    await q.close();
  });
});
