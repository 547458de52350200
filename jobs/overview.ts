/**
 * What the /jobs page shows: per-queue counts, running and failed jobs, workers seen recently,
 * and recent refusals, released jobs and lost leases. Bounded queries only.
 */
import { errorText } from './eval-run';
import { type JobQueue, QUEUES } from './queue';
import { JOBS_SCHEMA } from './schema';

export interface JobsOverview {
  queues: { name: string; created: number; retry: number; active: number; completed: number; failed: number }[];
  running: { id: string; queue: string; startedOn: string; attempt: number; summary: string }[];
  failed: { id: string; queue: string; at: string; attempts: number; error: string }[];
  workers: {
    id: string;
    host: string;
    build: string;
    queues: string[];
    concurrency: number;
    state: string;
    running: number;
    done: number;
    failed: number;
    refused: number;
    seenAt: string;
  }[];
  events: { at: string; worker: string; queue: string; jobId: string | null; kind: string; message: string }[];
}

const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : String(d));

/** A job's data in a few words (never the whole row: it may be long). */
function summary(queue: string, data: Record<string, unknown>): string {
  if (queue === 'eval') {
    const build = data.build as { gameId?: string } | undefined;
    return `${data.agent} on ${build?.gameId}, seeds ${(data.seeds as number[] | undefined)?.join(', ')} (run ${String(data.runId).slice(0, 8)})`;
  }
  if (queue === 'verify') return `submission ${data.submissionId}`;
  if (queue === 'live') return `live ticket ${data.ticketId}`;
  return '';
}

export async function jobsOverview(jobs: JobQueue, workersSeenWithinS = 120): Promise<JobsOverview> {
  const { sql } = jobs;
  const counts = await sql.query<{ name: string; state: string; n: string }>(
    `SELECT name, state::text AS state, count(*) AS n FROM pgboss.job WHERE name IN (${QUEUES.map((q) => `'${q}'`).join(', ')}) GROUP BY name, state`,
  );
  const queues = QUEUES.map((name) => {
    const of = (state: string) => Number(counts.find((c) => c.name === name && c.state === state)?.n ?? 0);
    return { name, created: of('created'), retry: of('retry'), active: of('active'), completed: of('completed'), failed: of('failed') };
  });
  const running = await sql.query<{ id: string; name: string; started_on: Date; retry_count: number; data: Record<string, unknown> }>(
    `SELECT id, name, started_on, retry_count, data FROM pgboss.job WHERE state = 'active' ORDER BY started_on LIMIT 50`,
  );
  const failed = await sql.query<{ id: string; name: string; completed_on: Date; retry_count: number; output: unknown }>(
    `SELECT id, name, completed_on, retry_count, output FROM pgboss.job WHERE state = 'failed' ORDER BY completed_on DESC LIMIT 20`,
  );
  const workers = await sql.query<Record<string, unknown>>(
    `SELECT * FROM ${JOBS_SCHEMA}.workers WHERE seen_at > now() - make_interval(secs => $1) ORDER BY seen_at DESC LIMIT 100`,
    [workersSeenWithinS],
  );
  const events = await sql.query<Record<string, unknown>>(`SELECT * FROM ${JOBS_SCHEMA}.events ORDER BY id DESC LIMIT 20`);
  return {
    queues,
    running: running.map((r) => ({
      id: r.id,
      queue: r.name,
      startedOn: iso(r.started_on),
      attempt: r.retry_count + 1,
      summary: summary(r.name, r.data),
    })),
    failed: failed.map((r) => ({
      id: r.id,
      queue: r.name,
      at: iso(r.completed_on),
      attempts: r.retry_count + 1,
      error: errorText(r.output),
    })),
    workers: workers.map((w) => ({
      id: String(w.id),
      host: String(w.host),
      build: String(w.build),
      queues: w.queues as string[],
      concurrency: Number(w.concurrency),
      state: String(w.state),
      running: Number(w.running),
      done: Number(w.done),
      failed: Number(w.failed),
      refused: Number(w.refused),
      seenAt: iso(w.seen_at),
    })),
    events: events.map((e) => ({
      at: iso(e.at),
      worker: String(e.worker),
      queue: String(e.queue),
      jobId: (e.job_id as string | null) ?? null,
      kind: String(e.kind),
      message: String(e.message),
    })),
  };
}
