import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Linux /proc readings for the pool's browsers: finding a browser's process, its tree
 * (zygotes, renderers, utility processes), their CPU time and memory. Elsewhere every
 * function returns nothing rather than failing: the pool works without them.
 */

let clockTicks: number | null = null;
function ticksPerSecond(): number {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

export interface ProcStat {
  pid: number;
  ppid: number;
  /** R, S, D, Z, ... */
  state: string;
  /** User + system CPU seconds of the process, plus those of its children it has reaped. */
  cpuSeconds: number;
}

export function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const t = ticksPerSecond();
  return { pid, ppid: Number(f[1]), state: f[0], cpuSeconds: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / t };
}

/** CPU seconds the whole machine has been busy so far (all cores, every process), from /proc/stat; null where it cannot be read. */
export function machineBusySeconds(): number | null {
  let line: string;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  } catch {
    return null;
  }
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + (steal || 0)) / ticksPerSecond();
}

export function readCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
}

/** The process whose command line holds `arg` (the pool tags each browser it launches). */
export function findProcessByArg(arg: string): number | null {
  for (const pid of allPids()) {
    const cmd = readCmdline(pid);
    if (cmd.includes(arg) && !cmd.includes('--type=')) return pid;
  }
  return null;
}

/** `roots` and every process descending from them, living or zombie. */
export function processTree(roots: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const s = readStat(pid);
    if (!s) continue;
    const list = children.get(s.ppid);
    if (list) list.push(pid);
    else children.set(s.ppid, [pid]);
  }
  const out: number[] = [];
  const stack = roots.filter((r) => readStat(r));
  const seen = new Set<number>();
  while (stack.length) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU seconds used by these processes (and the children they reaped) so far. */
export function cpuSecondsOf(pids: readonly number[]): number {
  let sum = 0;
  for (const pid of pids) sum += readStat(pid)?.cpuSeconds ?? 0;
  return sum;
}

export interface Memory {
  /** Resident memory, shared pages counted in every process that maps them. */
  rssBytes: number;
  /** Proportional share: shared pages split between the processes that map them. */
  pssBytes: number;
}

export function memoryOf(pids: readonly number[]): Memory {
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    try {
      const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(text)?.[1] ?? 0) * 1024;
      pss += Number(/^Pss:\s+(\d+)/m.exec(text)?.[1] ?? 0) * 1024;
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return { rssBytes: rss, pssBytes: pss };
}

/** Running or sleeping; a zombie (exited, not yet reaped) does not count. */
export function isAlive(pid: number): boolean {
  const s = readStat(pid);
  return !!s && s.state !== 'Z' && s.state !== 'X';
}
