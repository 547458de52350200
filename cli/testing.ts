/**
 * The `arcade-gym` command as the tests run it: this checkout's `bin/arcade-gym.mjs` under the
 * same Node, with the test's variables over the process's. `isolated` leaves out ARCADE_TOKEN and
 * DATABASE_URL, so a developer's shell cannot point a test at their own server or database.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../gym/paths';

const run = promisify(execFile);

export function cliRunner(opts: { timeoutMs: number; isolated?: boolean }) {
  const { ARCADE_TOKEN: _t, DATABASE_URL: _d, ...isolatedEnv } = process.env;
  const base = opts.isolated ? isolatedEnv : process.env;
  return (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [path.join(ROOT, 'bin/arcade-gym.mjs'), ...args], { cwd: ROOT, env: { ...base, ...env }, timeout: opts.timeoutMs });
}
