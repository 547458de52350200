/**
 * For the jobs tests: a leaderboard database with the job queue on it, on the site's embedded
 * PGlite (the queue shares its one connection, as jobs/site.ts does) and, with TEST_DATABASE_URL,
 * on a scratch database of that PostgreSQL server.
 */
import type { PGlite } from '@electric-sql/pglite';
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
