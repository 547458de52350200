/**
 * The generic agent learns a game it knows nothing about: fruit-catch (a third-party game with no
 * training preset) trained through `arcade-gym train` with the generic agent's settings, a short
 * run, must beat the random agent by more than two standard errors on the held-out seeds of the
 * table train prints.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cliRunner } from './testing';

const cli = cliRunner({ timeoutMs: 590_000 });
const EPISODES = 10;

/** mean and std of an agent's row in train's table ("ppo  10  56.5 ± 23.6  88.3  31.4"). */
function row(stdout: string, agent: string): { mean: number; std: number } {
  const m = new RegExp(`^${agent}\\s+${EPISODES}\\s+(-?[\\d.]+) ± ([\\d.]+)`, 'm').exec(stdout);
  if (!m) throw new Error(`no ${agent} row in:\n${stdout}`);
  return { mean: Number(m[1]), std: Number(m[2]) };
}

it('the generic agent beats random on fruit-catch after a short run', { timeout: 600_000 }, async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'arcade-generic-'));
  const args = ['train', '--game', 'fruit-catch', '--steps', '20480', '--seed', '1', '--backend', 'cpu', '--eval-episodes', String(EPISODES), '--out', out];
  const { stdout } = await cli(args);
  expect(stdout).toMatch(/with the generic agent/);
  const config = JSON.parse(readFileSync(path.join(out, 'config.json'), 'utf8'));
  expect(config.agent).toBe('generic');
  const ppo = row(stdout, 'ppo');
  const random = row(stdout, 'random');
  const se = Math.sqrt((ppo.std ** 2 + random.std ** 2) / EPISODES);
  expect(ppo.mean - random.mean, `ppo ${ppo.mean} ± ${ppo.std} vs random ${random.mean} ± ${random.std}`).toBeGreaterThan(2 * se);
});
