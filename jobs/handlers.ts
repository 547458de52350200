/**
 * What a worker does with each kind of job. An evaluation batch plays its seeds with the same
 * `evaluateGame` a single-process `eval` uses and stores the records in one transaction with the
 * job's completion; a verification job is leaderboard/verify-run.ts's, on the worker's database.
 */
import { mkdir, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../gym/browser';
import { getGame } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { canonicalJson } from '../gym/schema';
import { EvalBatchJob, VerifyJob } from './kinds';
import { JOBS_SCHEMA } from './schema';
import type { JobRunner } from '../leaderboard/verification-queue';
import type { JobHandler } from './worker';

/** Where a model agent's endpoint and key come from on a worker: its environment, never the job row. */
export function modelEndpointFromEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const baseUrl = env.ARCADE_MODEL_BASE_URL ?? env.OPENAI_BASE_URL;
  const apiKey = env.OPENAI_API_KEY;
  return { ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) };
}

/** A checkpoint named by sha256, fetched from the queue's blob table once per machine. */
async function checkpointFile(ctx: Parameters<JobHandler>[0], sha: string): Promise<string> {
  const file = path.join(tmpdir(), 'arcade-gym-blobs', `${sha}.agckpt`);
  if (
    await stat(file).then(
      () => true,
      () => false,
    )
  )
    return file;
  const [row] = await ctx.jobs.sql.query<{ bytes: Uint8Array }>(`SELECT bytes FROM ${JOBS_SCHEMA}.blobs WHERE sha256 = $1`, [sha]);
  if (!row) throw new Error(`checkpoint ${sha} is not in the queue's blob table`);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, row.bytes);
  await import('node:fs/promises').then((fs) => fs.rename(tmp, file));
  return file;
}

/** One browser per worker process, launched on first use (a crashed one is launched again). */
export function browserProvider(): { get(): Promise<Browser>; close(): Promise<void> } {
  let browser: Promise<Browser> | null = null;
  return {
    get() {
      if (!browser) {
        const launched = launchBrowser();
        browser = launched;
        launched.then(
          (b) =>
            b.on('disconnected', () => {
              if (browser === launched) browser = null;
            }),
          () => {
            if (browser === launched) browser = null;
          },
        );
      }
      return browser;
    },
    async close() {
      const b = browser;
      browser = null;
      if (b) await (await b).close().catch(() => undefined);
    },
  };
}

export function evalBatchHandler(browser: () => Promise<Browser>): JobHandler {
  return async (ctx) => {
    const job = EvalBatchJob.parse(ctx.data);
    const agentOptions: Record<string, unknown> = { ...job.agentOptions, ...(job.agent === 'openai' ? modelEndpointFromEnv() : {}) };
    if (job.checkpointSha256) agentOptions.checkpoint = await checkpointFile(ctx, job.checkpointSha256);
    const result = await evaluateGame({
      game: getGame(job.build.gameId),
      agent: job.agent,
      agentOptions,
      seeds: job.seeds,
      observation: job.observation,
      maxSteps: job.maxSteps,
      browser: await browser(),
      onEpisode: () => ctx.signal.throwIfAborted(),
    });
    ctx.signal.throwIfAborted();
    await ctx.complete(
      async (tx) => {
        // Keyed by position: a batch stored by an earlier attempt (whose completion was lost) adds nothing.
        for (const [i, record] of result.episodes.entries()) {
          await tx.query(
            `INSERT INTO ${JOBS_SCHEMA}.eval_episodes (run_id, game_index, seed_index, game_id, seed, record, job_id, worker)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
            [job.runId, job.gameIndex, job.seedOffset + i, job.build.gameId, record.seed, canonicalJson(record), ctx.id, ctx.worker],
          );
        }
        await tx.query(
          `INSERT INTO ${JOBS_SCHEMA}.eval_batches (run_id, batch, game_index, job_id, worker, agent_stats)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
          [job.runId, job.batch, job.gameIndex, ctx.id, ctx.worker, result.agentStats ? JSON.stringify(result.agentStats) : null],
        );
      },
      { episodes: result.episodes.length },
    );
  };
}

/** Verification: `verify` is verify-run.ts's job (the VerificationQueue's JobRunner) bound to this worker's database. */
export function verifyHandler(verify: JobRunner, budgetGraceMs = 2_000): JobHandler {
  return async (ctx) => {
    const job = VerifyJob.parse(ctx.data);
    // The submission's own budget, as the in-process queue gives it. A stopping worker does not
    // abort the replay (that would reject the submission): it lets go of the job, which another
    // worker takes up from the submission's row (a "verifying" submission is verified again).
    const budget = new AbortController();
    const { BudgetSpentError } = await import('../leaderboard/verification-queue');
    const timer = setTimeout(() => budget.abort(new BudgetSpentError(job.budgetMs)), job.budgetMs);
    let onStop = () => {};
    try {
      await Promise.race([
        verify({ submissionId: job.submissionId, owner: job.owner, budgetMs: job.budgetMs }, budget.signal),
        new Promise((_, reject) => budget.signal.addEventListener('abort', () => setTimeout(() => reject(budget.signal.reason), budgetGraceMs))),
        new Promise((_, reject) => {
          onStop = () => reject(ctx.signal.reason);
          ctx.signal.addEventListener('abort', onStop);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onStop);
    }
    ctx.signal.throwIfAborted();
  };
}
