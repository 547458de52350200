/**
 * /train/<id>: PPO in the visitor's browser (gym/browser-train). WebGPU runs on SwiftShader here
 * (VK_ICD_FILENAMES, `--enable-unsafe-webgpu`); the CPU fallback is the same page in a browser
 * without WebGPU. Each run must improve over its start; the downloaded policy is loaded by the CLI,
 * and a trained policy is evaluated on a server ticket in the page and submitted.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { findChromium } from '../gym/browser/find-chromium';
import { CHROMIUM_ARGS } from '../gym/browser/launch';

const run = promisify(execFile);
const env = { ...process.env, ARCADE_DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e', FORCE_COLOR: '0' };
process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';

interface MetricsLine {
  kind?: string;
  phase?: string;
  globalStep: number;
  episodeReturnMean: number | null;
}

/** Downloads one of the run's files through its button; returns where Playwright saved it. */
async function download(page: Page, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name, exact: true }).click()]);
  expect(file.suggestedFilename()).toBe(name);
  const to = path.join(mkdtempSync(path.join(os.tmpdir(), 'train-e2e-')), name);
  await file.saveAs(to);
  return to;
}

/** metrics.jsonl as the CLI writes it: the config line, then one line per update. */
function readMetrics(file: string): { config: Record<string, unknown>; updates: MetricsLine[] } {
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MetricsLine & Record<string, unknown>);
  expect(lines[0].kind).toBe('config');
  return { config: lines[0], updates: lines.slice(1) };
}

async function fill(page: Page, settings: { steps?: number; envs?: number; seed?: number; config?: object }): Promise<void> {
  if (settings.steps !== undefined) await page.getByLabel('steps').fill(String(settings.steps));
  if (settings.envs !== undefined) await page.getByLabel('instances').fill(String(settings.envs));
  if (settings.seed !== undefined) await page.getByLabel('seed').fill(String(settings.seed));
  if (settings.config !== undefined) await page.getByLabel('config overrides').fill(JSON.stringify(settings.config));
}

/** The return of the first update that saw an episode end, and of the last update. */
function startAndEnd(updates: MetricsLine[]): { start: number; end: number } {
  const withReturns = updates.filter((u) => u.episodeReturnMean !== null);
  return { start: withReturns[0].episodeReturnMean!, end: withReturns.at(-1)!.episodeReturnMean! };
}

test.describe('with WebGPU (SwiftShader)', () => {
  test.use({ launchOptions: { executablePath: findChromium({ headless: true }), args: [...CHROMIUM_ARGS, '--no-sandbox', '--enable-unsafe-webgpu'] } });

  test('CartPole: a short run on WebGPU improves over its start; pause holds it, resume and stop end it with the CLI files', async ({ page }) => {
    test.setTimeout(240_000);
    await page.goto('/train/cartpole');
    await expect(page.getByTestId('preset-source')).toContainText('no preset');
    await fill(page, { steps: 12_288, envs: 4, seed: 1, config: { numSteps: 128, learningRate: 0.003 } });
    await expect(page.getByTestId('preset-summary')).toContainText('4 instances × 128 steps per rollout, 12288 steps');
    await page.getByRole('button', { name: 'Train' }).click();
    await expect(page.getByTestId('backend')).toContainText('WebGPU:', { timeout: 60_000 });
    await expect(page.getByTestId('visibility')).toHaveText('Training runs while this tab is visible.');

    // A hidden tab is said to be throttled.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect(page.getByTestId('visibility')).toContainText('This tab is hidden: the browser may throttle it');
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
    });

    await expect(page.getByTestId('metric-update')).toHaveText('2', { timeout: 120_000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByTestId('train-status')).toHaveText('paused');
    // Paused: at most the update in flight finishes, then nothing moves.
    await page.waitForTimeout(3000);
    const held = await page.getByTestId('metric-globalStep').textContent();
    await page.waitForTimeout(2000);
    await expect(page.getByTestId('metric-globalStep')).toHaveText(held!);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(page.getByTestId('train-status')).toHaveText(/running|finished/);
    await expect(page.getByTestId('train-status')).toHaveText('finished', { timeout: 180_000 });
    await expect(page.getByTestId('learning-curve')).toBeVisible();

    const { config, updates } = readMetrics(await download(page, 'metrics.jsonl'));
    expect((config.command as { game: string }).game).toBe('cartpole');
    expect(updates).toHaveLength(12_288 / (4 * 128));
    const { start, end } = startAndEnd(updates);
    // Random CartPole balances ≈ 22 steps; a policy that learned nothing stays there.
    expect(end, `return ${start} → ${end}`).toBeGreaterThan(start + 15);
    expect(
      readFileSync(await download(page, 'checkpoint.agckpt'))
        .subarray(0, 8)
        .toString(),
    ).toBe('AGYMCKPT');
  });

  test('Snake: a short run on WebGPU improves over its start, the downloaded policy plays in `arcade-gym eval`, and a ticketed submission shows verified', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(420_000);
    await page.goto('/train/snake');
    await expect(page.getByTestId('preset-source')).toContainText('games/snake/train.json');
    await fill(page, SNAKE);
    await page.getByRole('button', { name: 'Train' }).click();
    await expect(page.getByTestId('backend')).toContainText('WebGPU:', { timeout: 60_000 });
    // The live view: instance 0's game page, drawn.
    await expect(page.getByTestId('train-frames').locator('iframe').first()).toBeVisible();
    await expect(page.getByTestId('train-status')).toHaveText('finished', { timeout: 300_000 });

    const { updates } = readMetrics(await download(page, 'metrics.jsonl'));
    const { start, end } = startAndEnd(updates);
    expect(end, `return ${start} → ${end}`).toBeGreaterThan(start + SNAKE_MARGIN);

    const policy = await download(page, 'policy.agckpt');
    const evaluated = await run('npx', ['arcade-gym', 'eval', '--game', 'snake', '--agent', 'ppo', '--checkpoint', policy, '--episodes', '2', '--seed', '7'], {
      env,
    });
    expect(evaluated.stdout).toMatch(/score/i);

    const token = (await run('npx', ['arcade-gym', 'token', 'create', '--name', `train-e2e-${Date.now()}`, '--server', baseURL!], { env })).stdout.trim();
    expect(token).toMatch(/^agt_/);
    const agent = `browser-ppo-e2e-${Date.now().toString(36)}`;
    await page.getByLabel('Token').fill(token);
    await page.getByLabel('Agent name').fill(agent);
    await page.getByRole('button', { name: 'Evaluate and submit' }).click();
    await expect(page.getByTestId('submit-status')).toContainText(/accepted: 3 of 3 episodes verified, 3 ranked/, { timeout: 180_000 });

    await page.goto('/leaderboard?suite=all');
    const row = page.getByTestId('leaderboard').locator(`tr[data-agent="${agent}"]`);
    await expect(row).toBeVisible();
    await expect(row.locator('[data-badge=verified]')).toBeVisible();
    await expect(row.locator('[data-badge=ticketed]')).toBeVisible();
  });
});

/** Snake settings that learn within about a minute of in-page stepping here (measured: see the README's training section). */
const SNAKE = { steps: 10_240, envs: 8, seed: 1, config: { numSteps: 32, learningRate: 0.003 } };
const SNAKE_MARGIN = 1;

test.describe('without WebGPU (the CPU fallback)', () => {
  test.use({ launchOptions: { executablePath: findChromium({ headless: true }), args: [...CHROMIUM_ARGS, '--no-sandbox', '--disable-features=WebGPU'] } });

  test('CartPole and Snake train on the CPU backend, the page says why, and both improve over their start', async ({ page }) => {
    test.setTimeout(360_000);
    await page.goto('/train/cartpole');
    await fill(page, { steps: 12_288, envs: 4, seed: 2, config: { numSteps: 128, learningRate: 0.003 } });
    await page.getByRole('button', { name: 'Train' }).click();
    await expect(page.getByTestId('backend')).toHaveText('CPU: WebGPU unavailable', { timeout: 60_000 });
    await expect(page.getByTestId('train-status')).toHaveText('finished', { timeout: 180_000 });
    const cart = startAndEnd(readMetrics(await download(page, 'metrics.jsonl')).updates);
    expect(cart.end, `return ${cart.start} → ${cart.end}`).toBeGreaterThan(cart.start + 15);

    await page.goto('/train/snake');
    await fill(page, SNAKE);
    await page.getByRole('button', { name: 'Train' }).click();
    await expect(page.getByTestId('backend')).toHaveText('CPU: WebGPU unavailable', { timeout: 60_000 });
    await expect(page.getByTestId('train-status')).toHaveText('finished', { timeout: 240_000 });
    const snake = startAndEnd(readMetrics(await download(page, 'metrics.jsonl')).updates);
    expect(snake.end, `return ${snake.start} → ${snake.end}`).toBeGreaterThan(snake.start + SNAKE_MARGIN);
  });
});
