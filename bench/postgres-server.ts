/**
 * A PostgreSQL server for the benches that need one, as the tests get theirs: the configured one
 * (BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL), else a temporary server of our own on
 * 127.0.0.1 (PostgreSQL 15 from Debian), stopped and removed by `stop()`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A PostgreSQL server to bench against: the configured one, or a temporary one of our own. */
export async function postgresServer(log: (line: string) => void = (l) => console.error(l)): Promise<{ url: string; stop(): void } | null> {
  const configured = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (configured) return { url: configured, stop: () => undefined };
  const bin = '/usr/lib/postgresql/15/bin';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arcade-bench-pg-'));
  const port = 54400 + Math.floor(Math.random() * 500);
  // PostgreSQL refuses to run as root: as root, run it as the postgres user; otherwise as ourselves.
  const root = process.getuid?.() === 0;
  const asPostgres = (args: string[]) =>
    root ? spawnSync('runuser', ['-u', 'postgres', '--', ...args], { encoding: 'utf8' }) : spawnSync(args[0], args.slice(1), { encoding: 'utf8' });
  if (root) spawnSync('chown', ['postgres', dir]);
  const init = asPostgres([`${bin}/initdb`, '-D', `${dir}/data`, '--auth=trust', '--no-sync', '-U', 'postgres']);
  const start =
    init.status === 0
      ? asPostgres([
          `${bin}/pg_ctl`,
          '-D',
          `${dir}/data`,
          '-w',
          '-l',
          `${dir}/log`,
          '-o',
          `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`,
          'start',
        ])
      : init;
  if (start.status !== 0) {
    log(
      `no PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL, or install PostgreSQL 15 (${(start.stderr || start.error?.message || '').trim().split('\n')[0]})`,
    );
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  log(`started a temporary PostgreSQL on port ${port}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      asPostgres([`${bin}/pg_ctl`, '-D', `${dir}/data`, '-m', 'fast', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
