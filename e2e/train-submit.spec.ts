/**
 * A trained agent reaches the leaderboard of a freshly started site (`next start`, from
 * playwright.config.ts) through `arcade-gym train … --submit` alone: a tiny PPO is trained, its
 * final policy plays a ticket the site draws, the site replays and ranks the run, and the
 * leaderboard, the agent page and the run page show it with its learning curve and training
 * settings (as claimed).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { arcadeCli } from './arcade-cli';
import { DEFAULT_SEEDS_PER_GAME as SEEDS } from '../leaderboard/scoring';

// The same folder playwright.config.ts gives the server.
// The token is the one made here, and the site is the embedded-database one the config starts.
const { ARCADE_TOKEN: _token, DATABASE_URL: _url, ...inherited } = process.env;
const env = { ...inherited, ARCADE_DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e', FORCE_COLOR: '0' };
const agent = `trained-e2e-${Date.now().toString(36)}`;
let runPath = '';

const cli = arcadeCli(env);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(600_000);
  const token = (await cli(['token', 'create', '--name', `${agent}-token`, '--server', baseURL!])).stdout.trim();
  expect(token).toMatch(/^agt_/);
  const out = mkdtempSync(path.join(os.tmpdir(), 'arcade-e2e-train-'));
  // Four PPO updates on snake (2 envs × 64 steps each) on the CPU backend: enough for a curve of several points.
  const trained = await cli([
    'train',
    '--game',
    'snake',
    '--steps',
    '512',
    '--envs',
    '2',
    '--backend',
    'cpu',
    '--seed',
    '7',
    '--eval-episodes',
    '1',
    '--out',
    out,
    '--submit',
    '--server',
    baseURL!,
    '--token',
    token,
    '--agent',
    agent,
  ]);
  // No --ticket-seeds: the server's default per game.
  expect(trained.stdout).toMatch(new RegExp(`Accepted: run .*${SEEDS} episodes verified by replay, ${SEEDS} ranked on snake`));
  runPath = /\/runs\/[0-9a-f-]{36}/.exec(trained.stdout)?.[0] ?? '';
  expect(runPath, trained.stdout).not.toBe('');
});

test('the trained agent is on the leaderboard, ticketed and verified, and its page shows the learning curve', async ({ page }) => {
  await page.goto('/leaderboard?suite=all');
  const mine = page.getByTestId('leaderboard').locator(`tr[data-agent="${agent}"]`);
  await expect(mine).toBeVisible();
  // train --submit played a live ticket: the server played it, so the default board ranks it.
  await expect(mine.locator('[data-badge=server-played]')).toBeVisible();
  await expect(mine.locator('[data-badge=verified]')).toBeVisible();
  await expect(mine.locator('[data-badge=ticketed]')).toBeVisible();
  // Snake's preset acts through the game's own afterstates: the Settings column says game-specific.
  await expect(mine).toContainText('game-specific');
  await mine.getByRole('link', { name: agent }).click();
  await expect(page).toHaveURL(new RegExp(`/agents/${agent}$`));

  await expect(page.getByTestId('agent-games').locator('tr[data-game="snake"]')).toContainText(String(SEEDS));
  const training = page.getByTestId('agent-training');
  await expect(training).toBeVisible();
  // The curve is drawn (recharts renders it in the browser): one line through the points.
  await expect(training.getByTestId('learning-curve').locator('.recharts-line-curve')).toHaveCount(1);
  await expect(training.getByTestId('training-backend')).toContainText('cpu (as claimed)');
  await expect(training.getByTestId('training-details')).toContainText('ppo');
  await expect(training.getByTestId('training-details')).toContainText(/[0-9a-f]{64}/);
  await expect(training.getByTestId('training-game-specific')).toContainText('game-specific');
  await expect(page.getByTestId('agent-runs').getByText('training')).toBeVisible();
});

test('the run page shows the ranked episodes with the learning curve and training settings', async ({ page }) => {
  await page.goto(runPath);
  await expect(page.getByTestId('run-ticket')).toContainText('ticketed');
  await expect(page.getByTestId('run-ranked')).toContainText(`${SEEDS} of ${SEEDS} episodes`);
  await expect(page.getByTestId('learning-curve').locator('.recharts-line-curve')).toHaveCount(1);
  await expect(page.getByTestId('training-backend')).toContainText('cpu');
  // The resolved config.json, as sent.
  await page.getByText('the run’s resolved config.json').click();
  await expect(page.getByTestId('training-details').locator('pre')).toContainText('"totalTimesteps": 512');
});
