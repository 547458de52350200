import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite has no cross-process lock: two processes opening one data folder corrupt it. This lock
 * file (next to the folder) names the process that owns it, and the URL of the server when
 * that process is one, so other tools know to go through HTTP instead.
 */
export interface LockInfo {
  pid: number;
  /** The process's start time (Linux /proc), so a reused pid is not mistaken for the owner. */
  started?: string;
  role: string;
  /** Where the owning server answers, when the owner is the web server. */
  url?: string;
  since: string;
}

export class DatabaseBusyError extends Error {
  constructor(
    readonly owner: LockInfo,
    dir: string,
  ) {
    super(`The embedded database at ${dir} is in use by process ${owner.pid} (${owner.role}${owner.url ? ` at ${owner.url}` : ''}).`);
    this.name = 'DatabaseBusyError';
  }
}

const lockPath = (dir: string) => `${dir}.lock`;

/** Folders this process holds: the lock file cannot tell two opens in one process apart. */
const HELD = Symbol.for('arcade-gym.held-database-dirs');
const held: Set<string> =
  ((globalThis as Record<symbol, unknown>)[HELD] as Set<string> | undefined) ?? ((globalThis as Record<symbol, unknown>)[HELD] = new Set<string>());

/** Field 22 of /proc/<pid>/stat: when the process started (null where there is no /proc). */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(owner: LockInfo): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A killed owner (SIGKILL leaves its lock behind) whose pid was reused is not the owner.
  const started = owner.started ? startTime(owner.pid) : null;
  return !started || started === owner.started;
}

/** The live owner of `dir`, or null when it is free (a lock left by a dead process counts as free). */
export function readLock(dir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(lockPath(dir), 'utf8')) as LockInfo;
    return info.pid !== process.pid && alive(info) ? info : null;
  } catch {
    return null;
  }
}

/** Takes `dir` for this process or throws DatabaseBusyError. Returns the release function. */
export function acquireLock(dir: string, role: string, url?: string): () => void {
  const file = lockPath(dir);
  if (held.has(file)) throw new DatabaseBusyError({ pid: process.pid, role: 'this process (opened twice)', since: '' }, dir);
  mkdirSync(path.dirname(file), { recursive: true });
  const info: LockInfo = { pid: process.pid, started: startTime(process.pid) ?? undefined, role, url, since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
      held.add(file);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = readLock(dir);
      if (owner) throw new DatabaseBusyError(owner, dir);
      if (attempt > 0) throw e;
      // Stale (its process is gone, or it is ours from an earlier open): take it over.
      unlinkSync(file);
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.delete(file);
    process.off('exit', release);
    try {
      const current = JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
      if (current.pid === process.pid) unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
  process.on('exit', release);
  return release;
}
