/**
 * Worker processes on a real PostgreSQL server (TEST_DATABASE_URL): a worker killed with -9 in the
 * middle of a job loses it to another after its lease; a worker with another build refuses a job
 * and another takes it; a worker stopped with SIGTERM loses nothing. Each time the run's records
 * must equal a single-process evaluation's, and each episode is stored once.
 */
import { mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getGame } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { BUILT_GAMES_DIR, PUBLIC_DIR } from '../gym/paths';
import { canonicalJson } from '../gym/schema';
import { createScratchDatabase, type ScratchDatabase } from '../leaderboard/pg-scratch';
import { enqueueEvalRun, evalRunRecords, waitForEvalRun } from './eval-run';
import { openJobQueue, type JobQueue } from './queue';
import { JOBS_SCHEMA } from './schema';
import { killWorkers, spawnWorkerProcess, until, type WorkerProcess } from './test-drivers';
import { postgresJobsSql } from './sql';

const SERVER = process.env.TEST_DATABASE_URL;
const GAME = 'snake';
const SEEDS = [0, 1, 2, 3];
const MAX_STEPS = 40;

interface Spawned extends WorkerProcess {
  /** Resolves once the worker takes jobs (its signal handlers are in place). */
  ready: Promise<void>;
}

function spawnWorker(url: string, env: Record<string, string> = {}): Spawned {
  const w = spawnWorkerProcess(url, ['--queues', 'eval', '--concurrency', '1', '--poll-ms', '200', '--grace', '60', '--health-s', '2'], env);
  const ready = until('the worker to start', async () => / started: build /.test(w.log()) || w.child.exitCode !== null, 180_000).then(() => undefined);
  ready.catch(() => undefined); // awaited by the tests that need it
  return { ...w, ready };
}

describe.skipIf(!SERVER)('worker processes on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let jobs: JobQueue;
  let expected: string[];
  const workers: Spawned[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase(SERVER!, 'arcade_jobs_test');
    jobs = await openJobQueue(await postgresJobsSql(scratch.url), { maintenanceIntervalSeconds: 1 });
    expected = [];
    await evaluateGame({
      game: getGame(GAME),
      agent: 'random',
      seeds: SEEDS,
      maxSteps: MAX_STEPS,
      onEpisode: (r) => void expected.push(canonicalJson(r)),
    });
  }, 300_000);

  afterEach(() => killWorkers(workers));

  afterAll(async () => {
    await jobs?.close();
    await scratch?.drop();
  });

  const enqueue = (expireInSeconds = 15) =>
    enqueueEvalRun(jobs, {
      games: [getGame(GAME)],
      seedsOf: () => SEEDS,
      agent: 'random',
      observation: ['state', 'vector'],
      maxSteps: MAX_STEPS,
      batchSize: 2,
      expireInSeconds,
    });

  async function expectRunMatches(runId: string) {
    await waitForEvalRun(jobs, runId, { pollMs: 300 });
    expect((await evalRunRecords(jobs, runId)).map((r) => r.record)).toEqual(expected);
    const [{ n }] = await jobs.sql.query<{ n: string }>(`SELECT count(*) AS n FROM ${JOBS_SCHEMA}.eval_episodes WHERE run_id = $1`, [runId]);
    expect(Number(n)).toBe(SEEDS.length);
  }

  it('a worker killed with -9 mid-job loses the job to another after its lease; results equal a fault-free run', async () => {
    const victim = spawnWorker(scratch.url);
    workers.push(victim);
    await victim.ready;
    const { runId } = await enqueue(10);
    // The victim holds a batch: kill it while the job is active.
    const active = await until(
      'an active batch',
      async () => {
        const rows = await jobs.sql.query<{ id: string }>(`SELECT id FROM pgboss.job WHERE name = 'eval' AND data->>'runId' = $1 AND state = 'active'`, [
          runId,
        ]);
        return rows[0];
      },
      180_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; the worker's log:\n${victim.log()}`);
    });
    victim.child.kill('SIGKILL');
    await victim.exited;
    const [stored] = await jobs.sql.query(`SELECT 1 FROM ${JOBS_SCHEMA}.eval_batches WHERE job_id = $1`, [active.id]);
    expect(stored).toBeUndefined(); // killed mid-job: nothing of it was stored
    const rescuer = spawnWorker(scratch.url);
    workers.push(rescuer);
    await expectRunMatches(runId);
    const [job] = await jobs.sql.query<{ retry_count: number; state: string }>(`SELECT retry_count, state::text AS state FROM pgboss.job WHERE id = $1`, [
      active.id,
    ]);
    expect(job.state).toBe('completed');
    expect(job.retry_count).toBeGreaterThanOrEqual(1); // the killed attempt, then another
    const [batch] = await jobs.sql.query<{ worker: string }>(`SELECT worker FROM ${JOBS_SCHEMA}.eval_batches WHERE job_id = $1`, [active.id]);
    expect(batch.worker).toContain(`-${rescuer.child.pid}-`);
    rescuer.child.kill('SIGTERM');
    expect(await rescuer.exited).toBe(0);
  }, 400_000);

  it('a worker with another build refuses a job, visibly, and another worker runs it', async () => {
    // A copy of the built games whose snake verifier differs: a machine with a stale build.
    const dir = mkdtempSync(path.join(tmpdir(), 'arcade-stale-build-'));
    try {
      mkdirSync(path.join(dir, 'games'));
      for (const f of readdirSync(PUBLIC_DIR)) if (f !== 'games') symlinkSync(path.join(PUBLIC_DIR, f), path.join(dir, f));
      for (const f of readdirSync(BUILT_GAMES_DIR)) if (f !== 'catalog.json') symlinkSync(path.join(BUILT_GAMES_DIR, f), path.join(dir, 'games', f));
      const catalog = JSON.parse(readFileSync(path.join(BUILT_GAMES_DIR, 'catalog.json'), 'utf8')) as {
        games: { manifest: { id: string }; verifierChecksum: string }[];
      };
      for (const g of catalog.games) if (g.manifest.id === GAME) g.verifierChecksum = 'f'.repeat(64);
      writeFileSync(path.join(dir, 'games', 'catalog.json'), JSON.stringify(catalog));

      const stale = spawnWorker(scratch.url, { ARCADE_PUBLIC_DIR: dir });
      workers.push(stale);
      await stale.ready;
      const { runId } = await enqueue();
      const refusal = await until(
        'a refusal',
        async () => (await jobs.sql.query<{ message: string }>(`SELECT message FROM ${JOBS_SCHEMA}.events WHERE kind = 'refused'`))[0],
        180_000,
      );
      expect(refusal.message).toMatch(/snake here is .* the job needs/);
      expect(stale.log()).toMatch(/REFUSED eval job/);
      const good = spawnWorker(scratch.url);
      workers.push(good);
      await expectRunMatches(runId);
      const done = await jobs.sql.query<{ worker: string }>(
        `SELECT worker FROM ${JOBS_SCHEMA}.eval_batches b JOIN ${JOBS_SCHEMA}.eval_runs r ON r.id = b.run_id WHERE r.id = $1`,
        [runId],
      );
      expect(done.every((d) => d.worker.includes(`-${good.child.pid}-`))).toBe(true);
      stale.child.kill('SIGTERM');
      good.child.kill('SIGTERM');
      expect(await stale.exited).toBe(0);
      expect(await good.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 400_000);

  it('SIGTERM mid-job: the worker finishes (or releases) its job, exits 0, and nothing is lost', async () => {
    const w = spawnWorker(scratch.url);
    workers.push(w);
    await w.ready;
    const { runId } = await enqueue();
    await until(
      'an active batch',
      async () => (await jobs.sql.query(`SELECT 1 FROM pgboss.job WHERE name = 'eval' AND data->>'runId' = $1 AND state = 'active'`, [runId]))[0],
      180_000,
    );
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    expect(w.log()).toMatch(/SIGTERM: stopping gracefully/);
    expect(w.log()).toMatch(/stopped\. health: stopped/);
    // What it had not started is still queued; another worker finishes the run.
    const next = spawnWorker(scratch.url);
    workers.push(next);
    await expectRunMatches(runId);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  }, 400_000);
});
