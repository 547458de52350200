/**
 * npm run bench:queue — the job queue on a real PostgreSQL server (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else a temporary one it starts, as bench:db does): a fixed suite evaluation played by 1, 2 and 4 `arcade-gym worker` processes
 * (wall time from enqueue to the last batch stored; worker start-up excluded), the records checked
 * identical across worker counts; then verification throughput through the queue (the evaluation's
 * records replayed as `verify` jobs by an in-process worker, 2 at a time).
 *
 * Settings: BENCH_SUITE (core), BENCH_GAMES (a,b: instead of the suite), BENCH_SEEDS (4 per game),
 * BENCH_MAX_STEPS (100), BENCH_BATCH (2 seeds per job), BENCH_WORKERS (1,2,4).
 * queue_overhead_ms_per_job = (wall time with one worker − time the jobs were active) ÷ jobs: the
 * enqueue, polling, lease and result transaction costs a job adds to its own work.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { formatTable } from '../cli/format-table';
import { gamesInSuite, getGame } from '../gym/catalog';
import { ROOT } from '../gym/paths';
import type { EpisodeRecord } from '../gym/schema';
import { createScratchDatabase } from '../leaderboard/pg-scratch';
import { VerifierBrowsers, verifyAbortable } from '../leaderboard/verifier-browser';
import { enqueueEvalRun, evalRunRecords, waitForEvalRun } from '../jobs/eval-run';
import { openJobQueue } from '../jobs/queue';
import { postgresJobsSql } from '../jobs/sql';
import { verifyHandler } from '../jobs/handlers';
import { Worker } from '../jobs/worker';
import { postgresServer } from './postgres-server';
import { smokeOr } from './smoke';

let SERVER = '';
const gamesEnv = process.env.BENCH_GAMES ?? smokeOr(undefined, 'snake');
const games = gamesEnv ? gamesEnv.split(',').map((g) => getGame(g.trim())) : gamesInSuite(process.env.BENCH_SUITE ?? 'core');
const SEEDS = Array.from({ length: Number(process.env.BENCH_SEEDS ?? smokeOr(4, 2)) }, (_, i) => i);
const MAX_STEPS = Number(process.env.BENCH_MAX_STEPS ?? smokeOr(100, 20));
const BATCH = Number(process.env.BENCH_BATCH ?? smokeOr(2, 1));
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? smokeOr('1,2,4', '1')).split(',').map(Number);

function spawnWorker(url: string): { child: ChildProcess; ready: Promise<void>; exited: Promise<void> } {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/arcade-gym.mjs'), 'worker', '--queues', 'eval', '--concurrency', '1', '--poll-ms', '100'], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/ started: build /.test(out)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`a worker exited (${code}) before it started:\n${out}`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, ready, exited };
}

async function evalWith(workers: number): Promise<{ wall: number; activeS: number; jobs: number; records: string[] }> {
  const scratch = await createScratchDatabase(SERVER, 'arcade_bench_queue');
  const jobs = await openJobQueue(await postgresJobsSql(scratch.url));
  const procs = Array.from({ length: workers }, () => spawnWorker(scratch.url));
  try {
    await Promise.all(procs.map((p) => p.ready));
    const t = performance.now();
    const run = await enqueueEvalRun(jobs, {
      games,
      seedsOf: () => SEEDS,
      agent: 'random',
      observation: ['state', 'vector'],
      maxSteps: MAX_STEPS,
      batchSize: BATCH,
    });
    await waitForEvalRun(jobs, run.runId, { pollMs: 100 });
    const wall = (performance.now() - t) / 1000;
    const [active] = await jobs.sql.query<{ s: number }>(
      `SELECT coalesce(sum(extract(epoch FROM completed_on - started_on)), 0)::float8 AS s FROM pgboss.job WHERE name = 'eval' AND state = 'completed'`,
    );
    const records = (await evalRunRecords(jobs, run.runId)).map((r) => r.record);
    process.stderr.write(`${workers} worker(s): ${run.episodes} episodes in ${run.batches} jobs, ${wall.toFixed(1)} s\n`);
    return { wall, activeS: Number(active.s), jobs: run.batches, records };
  } finally {
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(procs.map((p) => p.exited));
    await jobs.close();
    await scratch.drop();
  }
}

/** Replays `records` as verify jobs through the queue; episodes verified per second. */
async function verifyThroughput(records: EpisodeRecord[]): Promise<number> {
  const scratch = await createScratchDatabase(SERVER, 'arcade_bench_queue');
  const jobs = await openJobQueue(await postgresJobsSql(scratch.url));
  const browsers = new VerifierBrowsers();
  let mismatches = 0;
  const worker = new Worker({
    jobs,
    queues: ['verify'],
    concurrency: 2,
    pollMs: 100,
    log: () => undefined,
    handlers: {
      // Each job replays one episode (its id is the record's index), as a verification does.
      verify: verifyHandler(async (job, signal) => {
        const result = await browsers.run(signal, (b) => verifyAbortable(records[Number(job.submissionId)], b, signal));
        if (!result.ok) mismatches++;
      }),
    },
  });
  try {
    await worker.start();
    const t = performance.now();
    await jobs.boss.insert(
      records.map((r, i) => ({
        name: 'verify',
        data: {
          submissionId: String(i),
          owner: 'bench',
          budgetMs: 120_000,
          builds: [{ gameId: r.gameId, gameVersion: r.gameVersion, verifierChecksum: r.verifierChecksum }],
        },
      })),
    );
    for (;;) {
      const [{ n }] = await jobs.sql.query<{ n: string }>(`SELECT count(*) AS n FROM pgboss.job WHERE name = 'verify' AND state IN ('completed', 'failed')`);
      if (Number(n) === records.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const s = (performance.now() - t) / 1000;
    if (mismatches) throw new Error(`${mismatches} episode(s) did not replay as recorded`);
    return records.length / s;
  } finally {
    await worker.stop(0);
    await browsers.close();
    await jobs.close();
    await scratch.drop();
  }
}

async function main() {
  const server = await postgresServer();
  if (!server) throw new Error('bench:queue needs a PostgreSQL server: set BENCH_DATABASE_URL or TEST_DATABASE_URL, or install PostgreSQL 15');
  SERVER = server.url;
  try {
    await measure();
  } finally {
    server.stop();
  }
}

async function measure() {
  const byWorkers: Record<string, number> = {};
  let reference: string[] | null = null;
  let overheadMs = NaN;
  for (const n of WORKER_COUNTS) {
    const r = await evalWith(n);
    byWorkers[n] = Number(r.wall.toFixed(2));
    if (reference && r.records.join('\n') !== reference.join('\n')) throw new Error(`records with ${n} workers differ from those with ${WORKER_COUNTS[0]}`);
    reference ??= r.records;
    if (n === 1) overheadMs = ((r.wall - r.activeS) * 1000) / r.jobs;
  }
  const verifyEps = await verifyThroughput(reference!.map((l) => JSON.parse(l) as EpisodeRecord));
  const scaling = byWorkers[2] && byWorkers[1] ? byWorkers[1] / byWorkers[2] : NaN;
  console.log(
    formatTable(
      ['workers', 'eval wall (s)'],
      Object.entries(byWorkers).map(([k, v]) => [k, v.toFixed(2)]),
    ),
  );
  console.log(
    `\n${games.length} games × ${SEEDS.length} seeds, ≤ ${MAX_STEPS} steps, ${BATCH} seeds per job; ` +
      `verify ${verifyEps.toFixed(2)} episodes/s through the queue`,
  );
  console.log('Scaling is bounded by the cores: each worker runs its own Chromium, so on 2 cores 4 workers contend for the same CPUs.');
  console.log(
    JSON.stringify({
      bench: 'queue',
      games: games.map((g) => g.manifest.id),
      seeds_per_game: SEEDS.length,
      max_steps: MAX_STEPS,
      batch: BATCH,
      eval_wall_s_by_workers: byWorkers,
      scaling_2_vs_1: Number(scaling.toFixed(3)),
      verify_eps_per_s_queue: Number(verifyEps.toFixed(3)),
      queue_overhead_ms_per_job: Number(overheadMs.toFixed(1)),
    }),
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
