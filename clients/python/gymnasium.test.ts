import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonGameList } from '../../gym/build';
import { startGymServer, type GymServer } from '../../gym/server';

/**
 * With gymnasium installed, `import arcade_gym` registers every game, and gymnasium's own env
 * checker and make_vec accept each of them (tests/check_gymnasium.py). Gymnasium comes from the
 * wheels on this machine's disk (ARCADE_WHEELS, /opt/pypi/files by default), never an index;
 * numpy and the rest from Debian through --system-site-packages.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SYSTEM_PYTHON = '/usr/bin/python3';
const WHEELS = process.env.ARCADE_WHEELS ?? '/opt/pypi/files';

function run(file: string, args: string[], env: Record<string, string> = {}, timeout = 240_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env: { ...process.env, PYTHONPATH: '', ...env }, timeout, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

interface GameCheck {
  problems: string[];
  warnings: string[];
}

describe('gymnasium accepts every game (check_env and make_vec)', () => {
  let server: GymServer;
  let scratch: string;
  const python = () => path.join(scratch, 'venv', 'bin', 'python');
  beforeAll(async () => {
    if (!existsSync(WHEELS) || !readdirSync(WHEELS).some((f) => f.startsWith('gymnasium-'))) {
      throw new Error(`no gymnasium wheel in ${WHEELS}: set ARCADE_WHEELS to a folder holding gymnasium and its dependencies' wheels`);
    }
    server = await startGymServer({ port: 0, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 6 } } });
    scratch = mkdtempSync(path.join(tmpdir(), 'arcade-gymnasium-'));
    await run(SYSTEM_PYTHON, ['-m', 'venv', '--system-site-packages', path.join(scratch, 'venv')]);
    await run(python(), ['-m', 'pip', 'install', '--quiet', '--no-index', '--find-links', WHEELS, 'gymnasium', HERE]);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('every bundled game, and Snake in pixels, passes with no problems', async () => {
    const out = await run(python(), [path.join(HERE, 'tests', 'check_gymnasium.py'), server.url], {}, 600_000);
    const results = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, GameCheck>;
    const expected = [...pythonGameList().games.map((g) => g.id), 'snake/pixels'];
    expect(Object.keys(results).sort()).toEqual(expected.sort());
    const failing = Object.fromEntries(
      Object.entries(results)
        .filter(([, r]) => r.problems.length > 0)
        .map(([id, r]) => [id, r.problems]),
    );
    expect(failing).toEqual({});
  }, 700_000);
});
