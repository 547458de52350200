/**
 * The job queue's own SQL, on either driver the project uses: postgres.js for a PostgreSQL
 * server, PGlite for the embedded default. pg-boss talks to the same database through
 * `bossDb()` (its documented `{ executeSql }` adapter) on PGlite, and through its own `pg`
 * pool on a server; inside a transaction it is handed the transaction's connection, so a job's
 * results and its completion commit together.
 */
import type { PGlite, Transaction as PgliteTx } from '@electric-sql/pglite';
import type { Sql as PostgresSql, TransactionSql } from 'postgres';

export type Row = Record<string, unknown>;

export interface SqlRunner {
  query<T extends Row = Row>(text: string, params?: unknown[]): Promise<T[]>;
  /** The same connection as pg-boss's `db` option expects. */
  bossDb(): { executeSql(text: string, values?: unknown[]): Promise<{ rows: Row[] }> };
}

export interface JobsSql extends SqlRunner {
  driver: 'postgres' | 'pglite';
  /** Where pg-boss should connect by itself (a server), or null (PGlite: it uses bossDb()). */
  connectionString: string | null;
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function postgresRunner(sql: PostgresSql | TransactionSql): SqlRunner {
  const query = async <T extends Row>(text: string, params: unknown[] = []) => [...(await sql.unsafe(text, params as never[]))] as unknown as T[];
  return {
    query,
    bossDb: () => ({
      // Statements without parameters may be several (pg-boss's locked maintenance commands).
      executeSql: async (text, values) => ({
        rows: values?.length ? await query(text, values) : ([...(await sql.unsafe(text).simple())] as Row[]),
      }),
    }),
  };
}

/** PostgreSQL through postgres.js; `owned` clients are ended by close(). */
export function postgresJobsSql(url: string, client?: PostgresSql): Promise<JobsSql> {
  return (async () => {
    const { default: postgres } = await import('postgres');
    const sql = client ?? postgres(url, { max: Number(process.env.ARCADE_JOBS_POOL ?? 4), onnotice: () => undefined });
    return {
      ...postgresRunner(sql),
      driver: 'postgres' as const,
      connectionString: url,
      transaction: async <T>(fn: (tx: SqlRunner) => Promise<T>) => (await sql.begin((tx) => fn(postgresRunner(tx)))) as T,
      close: async () => {
        if (!client) await sql.end();
      },
    };
  })();
}

function pgliteRunner(db: PGlite | PgliteTx): SqlRunner {
  const query = async <T extends Row>(text: string, params: unknown[] = []) => (await db.query<T>(text, params)).rows;
  return {
    query,
    bossDb: () => ({
      executeSql: async (text, values) => {
        if (values?.length) return { rows: await query(text, values) };
        // exec runs several statements in one call; pg would return the last one's rows too.
        const results = await db.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Row[] };
      },
    }),
  };
}

/** The embedded database: one process, one connection, transactions serialised by PGlite. */
export function pgliteJobsSql(db: PGlite, close: () => Promise<void> = async () => undefined): JobsSql {
  return {
    ...pgliteRunner(db),
    driver: 'pglite',
    connectionString: null,
    transaction: (fn) => db.transaction((tx) => fn(pgliteRunner(tx))),
    close,
  };
}
