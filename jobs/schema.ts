/**
 * Tables the queue keeps beside pg-boss's own (schema `pgboss`): evaluation runs and their
 * episode records, workers seen, visible events (refusals, released jobs, lost leases), and
 * content-addressed blobs (policy checkpoints a worker downloads). Idempotent DDL under an
 * advisory lock, so any number of processes may start at once.
 */
import type { JobsSql } from './sql';

export const JOBS_SCHEMA = 'arcade_jobs';
const LOCK = 7_355_615;

const DDL = `
CREATE SCHEMA IF NOT EXISTS ${JOBS_SCHEMA};
CREATE TABLE IF NOT EXISTS ${JOBS_SCHEMA}.eval_runs (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  spec jsonb NOT NULL,
  batches integer NOT NULL,
  episodes integer NOT NULL
);
-- One row per episode: the primary key is what makes a retried batch store nothing twice.
CREATE TABLE IF NOT EXISTS ${JOBS_SCHEMA}.eval_episodes (
  run_id text NOT NULL REFERENCES ${JOBS_SCHEMA}.eval_runs(id) ON DELETE CASCADE,
  game_index integer NOT NULL,
  seed_index integer NOT NULL,
  game_id text NOT NULL,
  seed bigint NOT NULL,
  record text NOT NULL,
  job_id uuid NOT NULL,
  worker text NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, game_index, seed_index)
);
CREATE TABLE IF NOT EXISTS ${JOBS_SCHEMA}.eval_batches (
  run_id text NOT NULL REFERENCES ${JOBS_SCHEMA}.eval_runs(id) ON DELETE CASCADE,
  batch integer NOT NULL,
  game_index integer NOT NULL,
  job_id uuid NOT NULL,
  worker text NOT NULL,
  agent_stats jsonb,
  done_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, batch)
);
CREATE TABLE IF NOT EXISTS ${JOBS_SCHEMA}.workers (
  id text PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  build text NOT NULL,
  queues text[] NOT NULL,
  concurrency integer NOT NULL,
  state text NOT NULL,
  running integer NOT NULL DEFAULT 0,
  done integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  refused integer NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS ${JOBS_SCHEMA}.events (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  worker text NOT NULL,
  queue text NOT NULL,
  job_id uuid,
  kind text NOT NULL,
  message text NOT NULL
);
CREATE TABLE IF NOT EXISTS ${JOBS_SCHEMA}.blobs (
  sha256 text PRIMARY KEY,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`;

export async function migrateJobsSchema(sql: JobsSql): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK]);
    await tx.bossDb().executeSql(DDL);
  });
}
