import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonGameList } from '../../gym/build';
import { startGymServer, type GymServer } from '../../gym/server';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Debian's interpreter, as a user on this kind of machine has it (.ci/run installs python3-venv). */
const SYSTEM_PYTHON = '/usr/bin/python3';

function run(file: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: options.cwd, env: { ...process.env, PYTHONPATH: '', ...options.env }, timeout: 180_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The README's ```python blocks under `heading`, in order. */
function readmeBlocks(heading: string): string[] {
  const readme = readFileSync(path.join(HERE, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith(heading));
  if (!section) throw new Error(`clients/python/README.md has no "## ${heading}" section`);
  return [...section.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]);
}

describe('pip install ./clients/python in a fresh virtual environment, then the README quickstart', () => {
  let server: GymServer;
  let scratch: string;
  const venvPython = () => path.join(scratch, 'venv', 'bin', 'python');
  beforeAll(async () => {
    server = await startGymServer({ port: 0, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 10 } } });
    scratch = mkdtempSync(path.join(tmpdir(), 'arcade-pip-'));
    await run(SYSTEM_PYTHON, ['-m', 'venv', path.join(scratch, 'venv')]);
    // --no-index: the build backend is the package's own, so nothing may come from an index.
    await run(venvPython(), ['-m', 'pip', 'install', '--no-index', '--quiet', path.join(HERE)], { cwd: scratch });
  });
  afterAll(async () => {
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('installs as the arcade-gym distribution with the arcade_gym package and its list of games', async () => {
    const out = await run(
      venvPython(),
      [
        '-c',
        'import json, importlib.metadata as m, arcade_gym; print(json.dumps([m.version("arcade-gym"), arcade_gym.__file__, len(arcade_gym.bundled_games())]))',
      ],
      { cwd: scratch },
    );
    const [version, file, games] = JSON.parse(out.trim()) as [string, string, number];
    expect(version).toBe(/^version = "(.+)"$/m.exec(readFileSync(path.join(HERE, 'pyproject.toml'), 'utf8'))![1]);
    expect(file.startsWith(path.join(scratch, 'venv'))).toBe(true);
    expect(games).toBe(pythonGameList().games.length);
  });

  it('the quickstart plays an episode as written', async () => {
    const [single, vector] = readmeBlocks('Quickstart');
    expect(vector).toMatch(/ArcadeGymVectorEnv/);
    const env = { ARCADE_GYM_URL: server.url };
    const out = await run(venvPython(), ['-c', single], { cwd: scratch, env });
    expect(out).toMatch(/^return -?\d+(\.\d+)? steps \d+$/m);
    // The vector example names no URL either.
    await run(venvPython(), ['-c', `${vector.replace(/envs\.close\(\)/, 'print("obs", len(obs)); envs.close()')}`], { cwd: scratch, env }).then((o) =>
      expect(o).toMatch(/^obs 8$/m),
    );
  });

  it('pip install -e gives the checkout’s own files', async () => {
    const venv = path.join(scratch, 'editable');
    await run(SYSTEM_PYTHON, ['-m', 'venv', venv]);
    await run(path.join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--no-index', '--quiet', '-e', HERE], { cwd: scratch });
    const out = await run(path.join(venv, 'bin', 'python'), ['-c', 'import arcade_gym; print(arcade_gym.__file__)'], { cwd: scratch });
    expect(out.trim()).toBe(path.join(HERE, 'arcade_gym', '__init__.py'));
  });
});
