/**
 * The web server's job queue, on the server's own database: the PostgreSQL server of
 * DATABASE_URL, or the embedded PGlite the server already holds open (its one connection is
 * shared; PGlite serialises queries and transactions). One per process, on globalThis like the
 * rest of the server context.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../leaderboard/db';
import { openJobQueue, type JobQueue } from './queue';
import { pgliteJobsSql, postgresJobsSql } from './sql';

const KEY = Symbol.for('arcade-gym.site-jobs');
const g = globalThis as Record<symbol, Promise<JobQueue> | undefined>;

export function siteJobQueue(database: Database, url = process.env.DATABASE_URL): Promise<JobQueue> {
  g[KEY] ??= (async () => {
    if (database.driver === 'postgres') {
      if (!url) throw new Error('the site uses PostgreSQL but DATABASE_URL is not set');
      return openJobQueue(await postgresJobsSql(url));
    }
    // drizzle keeps the driver's client as $client.
    const client = (database.db as unknown as { $client: PGlite }).$client;
    return openJobQueue(pgliteJobsSql(client), { ownsSql: false });
  })();
  return g[KEY];
}

/** The queue if the server opened one (the /jobs page does not open it by itself). */
export function openedSiteJobQueue(): Promise<JobQueue> | undefined {
  return g[KEY];
}
