/**
 * The leaderboard's VerificationQueue on the job queue: a submission becomes a `verify` job that
 * any worker on the same database may take (`arcade-gym worker --queues verify`), and `start()`
 * runs an in-process worker too, so the site verifies on its own with no setup (embedded PGlite)
 * and alongside remote workers with a server.
 *
 * Like the in-process queue, jobs take turns across tokens (turns.ts); a job's position counts the
 * verify jobs that start before it on the whole cluster. A job may run twice (a worker that died
 * after storing the run but before marking the submission done): the second run finds the run
 * stored and only marks the submission (`onceStored`).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { runs, submissions } from '../drizzle/schema';
import type { Db } from '../leaderboard/db';
import type { JobPosition, JobRunner, VerificationJob, VerificationQueue } from '../leaderboard/verification-queue';
import { GameBuild } from './build';
import { verifyHandler } from './handlers';
import { VerifyJob } from './kinds';
import { releaseActiveJobs, type JobQueue } from './queue';
import { verifyTurnsAhead } from './turns';
import { Worker } from './worker';

/**
 * A verification that finds its submission's run already stored (an earlier attempt stored it and
 * died before it could mark the submission) marks the submission accepted with that run, rather
 * than replaying and storing it again (which the runs' unique key would refuse).
 */
export function onceStored(db: Db, run: JobRunner): JobRunner {
  return async (job, signal) => {
    const [stored] = await db
      .select({ id: runs.id, response: runs.response, episodes: runs.episodeCount })
      .from(submissions)
      // The runs' own key (token, client id), and the same body: this submission's run, not another's under its id.
      .innerJoin(
        runs,
        and(sql`${runs.tokenId} IS NOT DISTINCT FROM ${submissions.tokenId}`, eq(runs.clientId, submissions.clientId), eq(runs.bodyHash, submissions.bodyHash)),
      )
      .where(and(eq(submissions.id, job.submissionId), inArray(submissions.status, ['queued', 'verifying'])));
    if (!stored) return run(job, signal);
    await db
      .update(submissions)
      .set({ status: 'accepted', body: null, verified: stored.episodes, runId: stored.id, result: stored.response, finishedAt: new Date() })
      .where(eq(submissions.id, job.submissionId));
  };
}

export interface JobVerificationQueueOptions {
  /** Jobs this process verifies at once (0: none, leave it to other workers). Default 2. */
  slots?: number;
  /** Grace period of the in-process worker on close. */
  graceMs?: number;
  pollMs?: number;
  log?: (line: string) => void;
}

const PENDING = `state IN ('created', 'retry', 'active')`;

export class JobVerificationQueue implements VerificationQueue {
  private worker: Worker | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly db: Db,
    private readonly opts: JobVerificationQueueOptions = {},
  ) {}

  /** The game builds the submission's episodes name (empty if its body cannot be read: the job rejects it). */
  private async builds(submissionId: string): Promise<GameBuild[]> {
    const [row] = await this.db.select({ body: submissions.body }).from(submissions).where(eq(submissions.id, submissionId));
    const episodes = (row?.body as { episodes?: unknown[] } | null | undefined)?.episodes;
    if (!Array.isArray(episodes)) return [];
    const seen = new Map<string, GameBuild>();
    for (const e of episodes) {
      const parsed = GameBuild.safeParse({
        gameId: (e as Record<string, unknown>)?.gameId,
        gameVersion: (e as Record<string, unknown>)?.gameVersion,
        verifierChecksum: (e as Record<string, unknown>)?.verifierChecksum,
      });
      if (parsed.success) seen.set(`${parsed.data.gameId}@${parsed.data.gameVersion}:${parsed.data.verifierChecksum}`, parsed.data);
    }
    return [...seen.values()];
  }

  async enqueue(job: VerificationJob): Promise<void> {
    const pending = await this.jobs.sql.query(`SELECT 1 FROM pgboss.job WHERE name = 'verify' AND data->>'submissionId' = $1 AND ${PENDING}`, [
      job.submissionId,
    ]);
    if (pending.length) return;
    const data = VerifyJob.parse({ ...job, builds: await this.builds(job.submissionId) });
    // The lease outlasts the budget, so only a dead worker loses it.
    await this.jobs.boss.send('verify', data, { expireInSeconds: Math.ceil(job.budgetMs / 1000) + 60 });
  }

  async status(submissionId: string): Promise<JobPosition | null> {
    const [row] = await this.jobs.sql.query<{ state: string }>(
      `SELECT j.state::text AS state
         FROM pgboss.job j WHERE j.name = 'verify' AND j.data->>'submissionId' = $1 AND j.${PENDING}
         ORDER BY j.created_on DESC LIMIT 1`,
      [submissionId],
    );
    if (!row) return null;
    if (row.state === 'active') return { state: 'running' };
    return { state: 'queued', ahead: (await verifyTurnsAhead(this.jobs.sql, submissionId)) ?? 0 };
  }

  start(run: JobRunner): void {
    const slots = this.opts.slots ?? 2;
    if (slots < 1 || this.worker) return;
    const worker = new Worker({
      jobs: this.jobs,
      queues: ['verify'],
      handlers: { verify: verifyHandler(onceStored(this.db, run)) },
      concurrency: slots,
      pollMs: this.opts.pollMs ?? 500,
      healthMs: 5 * 60_000,
      log: this.opts.log ?? ((line) => console.log(`arcade-gym verify worker: ${line}`)),
    });
    this.worker = worker;
    void (async () => {
      // On the embedded database this process is the only one (its folder's lock): a job still
      // `active` was left by an earlier process that died holding it. It goes back to the queue now,
      // not once its lease runs out.
      if (this.jobs.sql.driver === 'pglite') await releaseActiveJobs(this.jobs, 'verify', 'the process that held it is gone (the site restarted)');
      await worker.start();
    })().catch((e) => console.error('arcade-gym: the verification worker did not start:', e));
  }

  async idle(): Promise<void> {
    for (;;) {
      const rows = await this.jobs.sql.query(`SELECT 1 FROM pgboss.job WHERE name = 'verify' AND ${PENDING} LIMIT 1`);
      if (!rows.length) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async close(): Promise<void> {
    await this.worker?.stop(this.opts.graceMs ?? 5_000);
    this.worker = null;
  }
}
