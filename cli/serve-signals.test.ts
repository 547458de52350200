import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../gym/paths';

/**
 * SIGTERM to the command as the README shows it (`npx arcade-gym serve`, `npm start`) must stop
 * the real server: npm passes the signal only to its `sh -c`, which dies without passing it on.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** pid → parent pid of every process, from /proc. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      out.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

function descendants(pid: number): number[] {
  const map = parents();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    for (const [child, parent] of map) if (parent === p && !found.includes(child)) found.push(child), queue.push(child);
  }
  return found;
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};
/** Alive and not a zombie. */
const alive = (pid: number) => {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

async function until<T>(what: string, ms: number, probe: () => T | undefined | false): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/** Processes a test started; any still running after it (before the fix, the orphans) are killed. */
let leftovers: { pid: number; cmd: string }[] = [];
const track = (pids: number[]) => (leftovers = pids.map((pid) => ({ pid, cmd: cmdline(pid) })));
afterEach(() => {
  // Only the same process: a pid that ended may have been given to another.
  for (const { pid, cmd } of leftovers) if (alive(pid) && cmdline(pid) === cmd) process.kill(pid, 'SIGKILL');
  leftovers = [];
});

describe('SIGTERM to the wrapper stops the real server', () => {
  it('`npx arcade-gym serve`: the server records the running episode, closes its browser and exits', async () => {
    const npx = spawn('npx', ['arcade-gym', 'serve', '--port', '0', '--browsers', '1', '--pages-per-browser', '1'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    npx.stderr!.on('data', (d) => (stderr += d));
    npx.stdout!.resume();
    try {
      const url = await until('the server to listen', 120_000, () => /listening on (http:\/\/\S+)/.exec(stderr)?.[1]);
      const post = async (p: string, body: unknown) => {
        const res = await fetch(url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return (await res.json()) as unknown;
      };
      const created = (await post('/v1/sessions', { game: 'snake', observation: 'state', maxSteps: 50 })) as { session: { id: string } };
      await post(`/v1/sessions/${created.session.id}/reset`, { seed: 1 });
      await post(`/v1/sessions/${created.session.id}/step`, { action: 1 });

      const tree = descendants(npx.pid!);
      track(tree);
      // npm exec → sh -c → node: the server is the node process (npm's own title is "npm exec …").
      const server = tree.find((pid) => path.basename(cmdline(pid).split(' ')[0]) === 'node' && / serve --port 0/.test(cmdline(pid)))!;
      expect(server, 'the server process under npx').toBeDefined();
      const browsers = descendants(server).filter((pid) => /chrom/.test(cmdline(pid)));
      expect(browsers.length).toBeGreaterThan(0);

      process.kill(npx.pid!, 'SIGTERM');
      await exited(npx);
      await until('the server process to exit', 30_000, () => !alive(server));
      await until('its browser to close', 10_000, () => browsers.every((pid) => !alive(pid)));
      expect(stderr).toMatch(/arcade-gym API stopped: 1 sessions closed, 1 running episodes recorded/);
    } finally {
      if (npx.exitCode === null && npx.signalCode === null) npx.kill('SIGKILL');
    }
  }, 180_000);

  it('`npm start`: the start script hands the signal to `next start` (its last command is exec’d)', async () => {
    // The real script in a scratch package whose next and tsx are stand-ins: building the site
    // takes minutes, and what is tested is how npm, sh and the script pass the signal on.
    const dir = mkdtempSync(path.join(tmpdir(), 'start-script-'));
    try {
      const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
      const pkg = { name: 'start-script-check', private: true, scripts: { start: scripts.start, 'build:games': 'true' } };
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
      mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
      const stub = (name: string, text: string) => {
        const file = path.join(dir, 'node_modules', '.bin', name);
        writeFileSync(file, `#!${process.execPath}\n${text}`);
        chmodSync(file, 0o755);
      };
      stub('tsx', 'process.exit(0);');
      stub(
        'next',
        [
          "const fs = require('node:fs');",
          "if (process.argv[2] !== 'start') process.exit(0);",
          "require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', () => fs.writeFileSync('next.pid', String(process.pid)));",
          "process.on('SIGTERM', () => { fs.writeFileSync('next.signal', 'SIGTERM'); process.exit(143); });",
        ].join('\n'),
      );
      const npm = spawn('npm', ['start'], { cwd: dir, env: { ...process.env, PORT: '0' }, stdio: 'ignore' });
      try {
        const pidFile = path.join(dir, 'next.pid');
        const next = await until('`next start` to run', 60_000, () => existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8')));
        track([next]);
        process.kill(npm.pid!, 'SIGTERM');
        await exited(npm);
        await until('`next start` to exit', 10_000, () => !alive(next));
        expect(readFileSync(path.join(dir, 'next.signal'), 'utf8')).toBe('SIGTERM');
      } finally {
        if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
