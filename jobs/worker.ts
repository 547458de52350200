/**
 * A worker: takes jobs from pg-boss queues, `concurrency` at a time, and runs each with its
 * queue's handler. What it adds to pg-boss's leases and retries:
 * - a build check before a job starts: a job naming game builds this machine does not have is
 *   refused, visibly (log line and an event row), and failed back to the queue for another worker;
 * - fencing: a handler stores its results with `complete()`, in one transaction with the job's
 *   completion, and only while this worker still holds the lease it was given (job id + retry
 *   count); a worker that lost its lease (it was too slow and the job went elsewhere) stores nothing;
 * - a heartbeat row (workers seen) and a health line in the log;
 * - a graceful stop: no new jobs, running ones finish within a grace period, the rest are released.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { buildMismatch, workerBuildId } from './build';
import { buildsNeeded } from './kinds';
import type { JobQueue, QueueName } from './queue';
import { JOBS_SCHEMA } from './schema';
import type { SqlRunner } from './sql';
import { fetchVerifyInTurns } from './turns';

export interface JobContext {
  id: string;
  queue: QueueName;
  data: unknown;
  retryCount: number;
  worker: string;
  /** Aborts when the worker stops and the job did not finish within the grace period. */
  signal: AbortSignal;
  jobs: JobQueue;
  /**
   * Runs `store` and completes the job in one transaction, if this worker still holds the job's
   * lease; false (nothing stored) if it does not.
   */
  complete(store?: (tx: SqlRunner) => Promise<unknown>, output?: object): Promise<boolean>;
  /**
   * Extends the job's lease to `seconds` from now, for a job that runs for as long as something
   * outside it lasts (a live ticket); false if this worker no longer holds the lease.
   */
  renewLease(seconds: number): Promise<boolean>;
}

export type JobHandler = (ctx: JobContext) => Promise<void>;

export interface WorkerOptions {
  jobs: JobQueue;
  queues: QueueName[];
  handlers: Partial<Record<QueueName, JobHandler>>;
  concurrency?: number;
  id?: string;
  /** Idle poll interval (default 1000 ms). */
  pollMs?: number;
  /** Heartbeat row interval (default 5 s) and health log line interval (default 30 s). */
  heartbeatMs?: number;
  healthMs?: number;
  log?: (line: string) => void;
}

/** After refusing a job, how long this worker leaves that queue to others. */
const REFUSAL_PAUSE_MS = 5_000;

interface Running {
  promise: Promise<void>;
  controller: AbortController;
}

export class Worker {
  readonly id: string;
  readonly build: string;
  private readonly jobs: JobQueue;
  private readonly queues: QueueName[];
  private readonly concurrency: number;
  private readonly running = new Map<string, Running>();
  private readonly pausedUntil = new Map<QueueName, number>();
  private readonly counts = { done: 0, failed: 0, refused: 0, released: 0, leaseLost: 0 };
  private state: 'starting' | 'running' | 'stopping' | 'stopped' = 'starting';
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];
  private readonly log: (line: string) => void;

  constructor(private readonly opts: WorkerOptions) {
    this.jobs = opts.jobs;
    this.queues = opts.queues;
    this.concurrency = Math.max(1, opts.concurrency ?? 1);
    this.id = opts.id ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 6)}`;
    this.build = workerBuildId();
    this.log = opts.log ?? ((line) => console.log(`[worker ${this.id}] ${line}`));
    for (const q of this.queues) if (!opts.handlers[q]) throw new Error(`no handler for queue "${q}"`);
  }

  /** Looks for jobs now rather than at the next poll (the enqueuer is in this process). */
  poke(): void {
    this.wake?.();
  }

  async start(): Promise<void> {
    this.state = 'running';
    await this.heartbeat();
    this.timers.push(setInterval(() => void this.heartbeat().catch((e) => this.log(`heartbeat failed: ${errorMessage(e)}`)), this.opts.heartbeatMs ?? 5_000));
    this.timers.push(setInterval(() => this.log(this.health()), this.opts.healthMs ?? 30_000));
    this.log(`started: build ${this.build}, queues ${this.queues.join(',')}, concurrency ${this.concurrency}`);
    this.loop = this.run();
  }

  health(): string {
    const mb = Math.round(process.memoryUsage().rss / 2 ** 20);
    const c = this.counts;
    return (
      `health: ${this.state}, running ${this.running.size}/${this.concurrency}, done ${c.done}, failed ${c.failed}, refused ${c.refused}, ` +
      `released ${c.released}, leases lost ${c.leaseLost}, rss ${mb} MiB`
    );
  }

  /**
   * Stops taking jobs; running ones get `graceMs` to finish, then their signal aborts and they are
   * released to the queue (failed, to be retried elsewhere). Nothing is lost either way.
   */
  async stop(graceMs = 30_000): Promise<void> {
    if (this.state === 'stopped') return;
    if (this.state !== 'stopping') {
      this.state = 'stopping';
      this.log(`stopping: ${this.running.size} job(s) running, ${Math.round(graceMs / 1000)} s to finish`);
    }
    this.wake?.();
    await this.loop;
    const all = Promise.all([...this.running.values()].map((r) => r.promise));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([all.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs)))]);
    clearTimeout(timer);
    if (timedOut) for (const r of this.running.values()) r.controller.abort(new Error('the worker is stopping'));
    await all;
    for (const t of this.timers) clearInterval(t);
    this.state = 'stopped';
    await this.heartbeat().catch(() => undefined);
    this.log(`stopped. ${this.health()}`);
  }

  private async run(): Promise<void> {
    let turn = 0;
    while (this.state === 'running') {
      let took = false;
      for (let i = 0; i < this.queues.length && this.running.size < this.concurrency && this.state === 'running'; i++) {
        const queue = this.queues[(turn + i) % this.queues.length];
        if ((this.pausedUntil.get(queue) ?? 0) > Date.now()) continue;
        let fetched: PgBoss.JobWithMetadata<unknown>[] = [];
        try {
          // Verification takes turns across tokens (turns.ts); evaluation batches go oldest first.
          fetched =
            queue === 'verify'
              ? await fetchVerifyInTurns(this.jobs.sql, 1)
              : await this.jobs.boss.fetch<unknown>(queue, { includeMetadata: true, batchSize: 1 });
        } catch (e) {
          this.log(`fetch from ${queue} failed: ${errorMessage(e)}`);
        }
        for (const job of fetched ?? []) {
          took = true;
          this.launch(queue, job);
        }
      }
      turn++;
      if (this.state !== 'running') break;
      // Full, or nothing to take: wait for a slot to free or the poll interval.
      if (!took || this.running.size >= this.concurrency) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.opts.pollMs ?? 1_000);
          this.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  private launch(queue: QueueName, job: PgBoss.JobWithMetadata<unknown>): void {
    const controller = new AbortController();
    const promise = this.handle(queue, job, controller.signal).finally(() => {
      this.running.delete(job.id);
      this.wake?.();
    });
    this.running.set(job.id, { promise, controller });
  }

  private async event(queue: string, jobId: string | null, kind: string, message: string): Promise<void> {
    await this.jobs.sql
      .query(`INSERT INTO ${JOBS_SCHEMA}.events (worker, queue, job_id, kind, message) VALUES ($1, $2, $3, $4, $5)`, [
        this.id,
        queue,
        jobId,
        kind,
        message.slice(0, 2000),
      ])
      .catch((e) => this.log(`could not record a ${kind} event: ${errorMessage(e)}`));
  }

  private async handle(queue: QueueName, job: PgBoss.JobWithMetadata<unknown>, signal: AbortSignal): Promise<void> {
    const { boss } = this.jobs;
    let mismatch: string | null;
    try {
      mismatch = buildMismatch(buildsNeeded(queue, job.data));
    } catch {
      mismatch = null;
      // A row that does not parse is a bug of whoever sent it; the handler below reports it as a failure.
    }
    if (mismatch) {
      this.counts.refused++;
      this.pausedUntil.set(queue, Date.now() + REFUSAL_PAUSE_MS);
      const message = `refused by worker ${this.id} (build ${this.build}): ${mismatch}`;
      this.log(`REFUSED ${queue} job ${job.id}: ${mismatch}`);
      await this.event(queue, job.id, 'refused', message);
      // Handed back without using up one of its retries: a job no worker can take stays queued
      // (and shows its refusals) until a worker with its build comes, rather than failing.
      await this.jobs.sql
        .transaction(async (tx) => {
          const held = await tx.query(
            'UPDATE pgboss.job SET retry_limit = retry_limit + 1 WHERE name = $1 AND id = $2 AND state = $3 AND retry_count = $4 RETURNING id',
            [queue, job.id, 'active', job.retryCount],
          );
          if (held.length) await boss.fail(queue, job.id, { message, refusedBy: this.id }, { db: tx.bossDb() as PgBoss.Db });
        })
        .catch((e) => this.log(`could not hand back job ${job.id}: ${errorMessage(e)}`));
      return;
    }
    let completed = false;
    const ctx: JobContext = {
      id: job.id,
      queue,
      data: job.data,
      retryCount: job.retryCount,
      worker: this.id,
      signal,
      jobs: this.jobs,
      complete: async (store, output) => {
        const held = await this.jobs.sql.transaction(async (tx) => {
          // The lease: this job, in the attempt this worker fetched. Locked until commit.
          const rows = await tx.query('SELECT 1 FROM pgboss.job WHERE name = $1 AND id = $2 AND state = $3 AND retry_count = $4 FOR UPDATE', [
            queue,
            job.id,
            'active',
            job.retryCount,
          ]);
          if (!rows.length) return false;
          await store?.(tx);
          await boss.complete(queue, job.id, { worker: this.id, ...output }, { db: tx.bossDb() as PgBoss.Db });
          return true;
        });
        completed = true;
        if (!held) {
          this.counts.leaseLost++;
          this.log(`lease lost on ${queue} job ${job.id} (attempt ${job.retryCount}): it expired and went elsewhere; nothing stored`);
          await this.event(queue, job.id, 'lease-lost', `worker ${this.id} finished after its lease ended; its results were dropped`);
        }
        return held;
      },
      renewLease: async (seconds) => {
        const rows = await this.jobs.sql.query(
          `UPDATE pgboss.job SET expire_in = (now() - started_on) + make_interval(secs => $5)
           WHERE name = $1 AND id = $2 AND state = $3 AND retry_count = $4 RETURNING id`,
          [queue, job.id, 'active', job.retryCount, seconds],
        );
        return rows.length > 0;
      },
    };
    const started = Date.now();
    try {
      await this.opts.handlers[queue]!(ctx);
      if (!completed) await ctx.complete();
      this.counts.done++;
      this.log(`done ${queue} job ${job.id} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (e) {
      if (signal.aborted) {
        this.counts.released++;
        this.log(`released ${queue} job ${job.id}: the worker is stopping`);
        await this.event(queue, job.id, 'released', `worker ${this.id} stopped before the job finished; it goes back to the queue`);
        await boss.fail(queue, job.id, { message: `released by worker ${this.id}, which was stopping` }).catch(() => undefined);
      } else {
        this.counts.failed++;
        this.log(`FAILED ${queue} job ${job.id} (attempt ${job.retryCount + 1}): ${errorMessage(e)}`);
        await this.event(queue, job.id, 'failed', errorMessage(e));
        await boss.fail(queue, job.id, { message: errorMessage(e), worker: this.id }).catch(() => undefined);
      }
    }
  }

  private async heartbeat(): Promise<void> {
    const c = this.counts;
    await this.jobs.sql.query(
      `INSERT INTO ${JOBS_SCHEMA}.workers (id, host, pid, build, queues, concurrency, state, running, done, failed, refused)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (id) DO UPDATE SET state = $7, running = $8, done = $9, failed = $10, refused = $11, seen_at = now()`,
      [this.id, hostname(), process.pid, this.build, this.queues, this.concurrency, this.state, this.running.size, c.done, c.failed, c.refused],
    );
  }
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
