/**
 * For the jobs tests: a leaderboard database with the job queue on it, on the site's embedded
 * PGlite (the queue shares its one connection, as jobs/site.ts does) and, with TEST_DATABASE_URL,
 * on a scratch database of that PostgreSQL server; `arcade-gym worker` processes on such a database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { ROOT } from '../gym/paths';
import { openDatabase, type Database } from '../leaderboard/db';
import { createScratchDatabase } from '../leaderboard/pg-scratch';
import { openJobQueue, type JobQueue } from './queue';
import { pgliteJobsSql, postgresJobsSql } from './sql';

export interface JobTestSetup {
  database: Database;
  jobs: JobQueue;
  close(): Promise<void>;
}

export interface JobTestDriver {
  name: 'pglite' | 'postgres';
  open(): Promise<JobTestSetup>;
}

export function jobTestDrivers(): JobTestDriver[] {
  const drivers: JobTestDriver[] = [
    {
      name: 'pglite',
      async open() {
        const database = await openDatabase({ dataDir: 'memory' });
        const client = (database.db as unknown as { $client: PGlite }).$client;
        const jobs = await openJobQueue(pgliteJobsSql(client), { ownsSql: false });
        return { database, jobs, close: async () => (await jobs.close(), await database.close()) };
      },
    },
  ];
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    drivers.push({
      name: 'postgres',
      async open() {
        const scratch = await createScratchDatabase(server, 'arcade_test_jobs');
        const database = await openDatabase({ url: scratch.url });
        const jobs = await openJobQueue(await postgresJobsSql(scratch.url));
        return {
          database,
          jobs,
          close: async () => {
            await jobs.close();
            await database.close();
            await scratch.drop();
          },
        };
      },
    });
  }
  return drivers;
}

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  log: () => string;
  exited: Promise<number | null>;
}

/** `arcade-gym worker ARGS` on the queue at `url`, its expired leases failed every second. */
export function spawnWorkerProcess(url: string, args: string[], env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/arcade-gym.mjs'), 'worker', ...args], {
    env: { ...process.env, DATABASE_URL: url, ARCADE_JOBS_MAINTENANCE_S: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, log: () => out, exited };
}

/** Kills (-9) and forgets the workers still running: one left over by a failed test would take the next test's jobs. */
export async function killWorkers(workers: WorkerProcess[]): Promise<void> {
  for (const w of workers.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) {
      w.child.kill('SIGKILL');
      await w.exited;
    }
  }
}

/** Polls `fn` every 200 ms until it gives something, or fails after `timeoutMs` naming `what`. */
export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
