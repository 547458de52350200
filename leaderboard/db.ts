/**
 * One code path, two drivers: embedded PGlite (the zero-setup default, data under
 * ARCADE_DATA_DIR or ./.data) and PostgreSQL through postgres.js when DATABASE_URL is set.
 * Opening a database migrates it; migrations are recorded, so running them twice is a no-op.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from '../drizzle/schema';
import { acquireLock } from './dir-lock';
import { migrationsDir, pgliteDir } from './paths';

export type Schema = typeof schema;
/** The query builder both drivers give; transactions are the same type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Driver = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  driver: Driver;
  /** Where the data is, in words (a folder, "memory", or the URL without its password). */
  location: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A postgres:// URL. Defaults to DATABASE_URL; without one the embedded database is used. */
  url?: string;
  /** The PGlite data folder, or "memory". Defaults to <ARCADE_DATA_DIR or .data>/pglite. */
  dataDir?: string;
  /** Who owns an embedded data folder (shown to other processes that find it taken). */
  role?: string;
  /** The URL the owning process serves on, if it is the web server. */
  serverUrl?: string;
  /** Run migrations (default true). */
  migrate?: boolean;
}

/** Advisory lock key so that two processes starting together do not both migrate. */
const MIGRATION_LOCK = 7_355_608;

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

export async function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  const url = opts.url ?? (opts.dataDir ? undefined : process.env.DATABASE_URL);
  return url ? openPostgres(url, opts.migrate ?? true) : openPglite(opts.dataDir ?? pgliteDir(), opts);
}

async function openPostgres(url: string, migrate: boolean): Promise<Database> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  if (migrate) {
    // A dedicated single connection: the advisory lock belongs to a session.
    const one = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await one`select pg_advisory_lock(${MIGRATION_LOCK})`;
      const { migrate: run } = await import('drizzle-orm/postgres-js/migrator');
      await run(drizzle({ client: one }), { migrationsFolder: migrationsDir() });
      await one`select pg_advisory_unlock(${MIGRATION_LOCK})`;
    } finally {
      await one.end();
    }
  }
  const client = postgres(url, { max: Number(process.env.ARCADE_DB_POOL ?? 10), onnotice: () => undefined });
  const db: Db = drizzle({ client, schema });
  return { db, driver: 'postgres', location: redact(url), close: () => client.end() };
}

async function openPglite(dir: string, opts: OpenOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const memory = dir === 'memory';
  let release = () => {};
  if (!memory) {
    // PGlite needs the parent folder to exist, and exclusive use of the data folder.
    mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
    release = acquireLock(path.resolve(dir), opts.role ?? `pid ${process.pid}`, opts.serverUrl);
  }
  try {
    const client = memory ? new PGlite() : new PGlite(path.resolve(dir));
    await client.waitReady;
    const lite = drizzle({ client, schema });
    if (opts.migrate ?? true) {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(lite, { migrationsFolder: migrationsDir() });
    }
    const db: Db = lite;
    return {
      db,
      driver: 'pglite',
      location: memory ? 'memory' : path.resolve(dir),
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}
