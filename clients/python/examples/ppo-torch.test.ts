import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGymServer, type GymServer } from '../../../gym/server';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Debian's interpreter with python3-numpy and python3-torch (.ci/run installs them). */
const SYSTEM_PYTHON = '/usr/bin/python3';

interface Result {
  total_steps: number;
  ppo_mean: number;
  random_mean: number;
  ppo_returns: number[];
  random_returns: number[];
}

function train(server: GymServer, args: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    execFile(
      SYSTEM_PYTHON,
      [path.join(HERE, 'ppo_torch.py'), ...args],
      { env: { ...process.env, PYTHONPATH: '', ARCADE_GYM_URL: server.url }, timeout: 600_000, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`ppo_torch.py failed (needs ${SYSTEM_PYTHON} with numpy and torch): ${err.message}\n${stderr.slice(-4000)}`));
        resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as Result);
      },
    );
  });
}

const variance = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
};

describe('the PyTorch PPO example trains through the Python vector env', () => {
  let server: GymServer;
  beforeAll(async () => {
    server = await startGymServer({ port: 0, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 16 } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a short run on Snake beats a uniform random policy on 20 held-out seeds', { timeout: 660_000 }, async () => {
    const r = await train(server, ['--game', 'snake', '--total-steps', '24576', '--num-envs', '16', '--eval-episodes', '20', '--seed', '1']);
    expect(r.total_steps).toBe(24576);
    expect(r.ppo_returns).toHaveLength(20);
    expect(r.random_returns).toHaveLength(20);
    // Beyond noise: the gap exceeds twice the standard error of the difference of the two means.
    const se = Math.sqrt(variance(r.ppo_returns) / 20 + variance(r.random_returns) / 20);
    expect(r.ppo_mean - r.random_mean, `PPO ${r.ppo_mean} against random ${r.random_mean} (se ${se.toFixed(2)})`).toBeGreaterThan(2 * se);
  });
});
