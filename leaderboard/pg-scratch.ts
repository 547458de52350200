/**
 * A throwaway database on a PostgreSQL server (tests and benchmarks): each caller gets its own,
 * so runs in parallel never see each other's rows.
 */
import { randomBytes } from 'node:crypto';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(serverUrl: string, fn: (sql: import('postgres').Sql) => Promise<T>): Promise<T> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

export async function createScratchDatabase(serverUrl: string, prefix = 'arcade_scratch'): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin(serverUrl, (sql) => sql.unsafe(`create database ${name}`));
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: () => withAdmin(serverUrl, (sql) => sql.unsafe(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}
