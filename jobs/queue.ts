/**
 * The job queue: pg-boss on the leaderboard's database. pg-boss gives leases (a job fetched is
 * `active` until it completes, fails or its `expireInSeconds` runs out, after which maintenance
 * fails it and it is retried), retries with delay, and archiving; this module opens it on a
 * PostgreSQL server (DATABASE_URL) or on the embedded PGlite of one process, and creates the
 * project's queues.
 */
import PgBoss from 'pg-boss';
import { migrateJobsSchema } from './schema';
import { pgliteJobsSql, postgresJobsSql, type JobsSql } from './sql';

export const QUEUES = ['eval', 'verify', 'live'] as const;
export type QueueName = (typeof QUEUES)[number];

/** A live job's lease, renewed by the worker that plays the ticket every third of it. */
export const LIVE_LEASE_S = 45;

/** Defaults per queue; a job may set its own expiry (its lease) when it is sent. */
const QUEUE_OPTIONS: Record<QueueName, Omit<PgBoss.Queue, 'name'>> = {
  eval: { retryLimit: 5, retryDelay: 2, expireInSeconds: 15 * 60 },
  verify: { retryLimit: 3, retryDelay: 2, expireInSeconds: 10 * 60 },
  // A live ticket is held for as long as it is played (hours): its worker renews this short lease
  // (jobs/live-jobs.ts), so a worker that dies hands the ticket to another within a minute or so.
  live: { retryLimit: 10, retryDelay: 1, expireInSeconds: LIVE_LEASE_S },
};

export interface JobQueue {
  boss: PgBoss;
  sql: JobsSql;
  close(): Promise<void>;
}

export interface OpenQueueOptions {
  /** How often expired leases are failed (and so retried). Default 10 s, or ARCADE_JOBS_MAINTENANCE_S. */
  maintenanceIntervalSeconds?: number;
  /** Close the SQL client with the queue (default true). */
  ownsSql?: boolean;
}

export async function openJobQueue(sql: JobsSql, opts: OpenQueueOptions = {}): Promise<JobQueue> {
  await migrateJobsSchema(sql);
  const maintenance = opts.maintenanceIntervalSeconds ?? (Number(process.env.ARCADE_JOBS_MAINTENANCE_S) || 10);
  const common = { schema: 'pgboss', schedule: false, maintenanceIntervalSeconds: maintenance, monitorStateIntervalSeconds: 60 };
  const boss = sql.connectionString
    ? new PgBoss({ ...common, connectionString: sql.connectionString, max: 4, application_name: 'arcade-gym jobs' })
    : new PgBoss({ ...common, db: sql.bossDb() as PgBoss.Db });
  // pg-boss reports its own background failures (maintenance, a dropped connection) as events.
  boss.on('error', (e) => console.error(`arcade-gym jobs: ${e instanceof Error ? e.message : e}`));
  await boss.start();
  for (const name of QUEUES) {
    if (await boss.getQueue(name)) continue;
    try {
      await boss.createQueue(name, { name, ...QUEUE_OPTIONS[name] });
    } catch (e) {
      // Another process created it meanwhile.
      if (!(await boss.getQueue(name))) throw e;
    }
  }
  return {
    boss,
    sql,
    close: async () => {
      await boss.stop({ graceful: false, wait: true, close: true });
      if (opts.ownsSql ?? true) await sql.close();
    },
  };
}

/**
 * Fails every `active` job of a queue back to it (a retry, as an expired lease would): for a
 * database only this process uses, where a job still active was left by a process that died.
 */
export async function releaseActiveJobs(jobs: JobQueue, queue: QueueName, reason: string): Promise<number> {
  const rows = await jobs.sql.query<{ id: string }>(`SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active'`, [queue]);
  for (const { id } of rows) await jobs.boss.fail(queue, id, { message: `released: ${reason}` });
  return rows.length;
}

/**
 * The queue on DATABASE_URL (or `url`), or, without one, on a PGlite the caller owns. The
 * embedded queue lives and dies with its process: it is for running everything in one process.
 */
export async function openQueueFor(url: string | undefined, pglite?: () => Promise<import('@electric-sql/pglite').PGlite>): Promise<JobQueue> {
  if (url) return openJobQueue(await postgresJobsSql(url));
  if (!pglite) throw new Error('no DATABASE_URL and no embedded database to put the queue on');
  const db = await pglite();
  return openJobQueue(pgliteJobsSql(db));
}

/** An in-memory PGlite: the zero-setup queue of a single process (`eval --queue` without DATABASE_URL, tests). */
export async function memoryPglite(): Promise<import('@electric-sql/pglite').PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite();
  await db.waitReady;
  return db;
}
