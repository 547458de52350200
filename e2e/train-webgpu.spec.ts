/**
 * /train/<id> with WebGPU: SwiftShader here (VK_ICD_FILENAMES, `--enable-unsafe-webgpu`). Each run must
 * improve over its start; the downloaded policy plays in the CLI, and a trained policy plays a live
 * ticket from the page (the server's seeds, the page's actions), and shows on the default board as verified.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { DEFAULT_SEEDS_PER_GAME as SEEDS } from '../leaderboard/scoring';
import { download, env, fill, launchWith, readMetrics, run, SNAKE, SNAKE_MARGIN, startAndEnd, waitForUpdates } from './train-helpers';

process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';
test.use({ launchOptions: launchWith(['--enable-unsafe-webgpu']) });

test('CartPole: a short run on WebGPU improves over its start; pause holds it, it resumes and ends with the CLI files', async ({ page }) => {
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

  await waitForUpdates(page, 2);
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

test('Snake: a short run on WebGPU improves over its start, the downloaded policy plays in `arcade-gym eval`, and a live submission shows verified on the default board', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(540_000);
  await page.goto('/train/snake');
  await expect(page.getByTestId('preset-source')).toContainText('games/snake/train.json');
  // Snake's preset observes its keys through the game's own afterstates.
  await expect(page.getByTestId('game-specific')).toContainText('game-specific');
  await fill(page, SNAKE);
  await page.getByRole('button', { name: 'Train' }).click();
  await expect(page.getByTestId('backend')).toContainText('WebGPU:', { timeout: 60_000 });
  // The live view: instance 0's game page, drawn.
  await expect(page.getByTestId('train-frames').locator('iframe').first()).toBeVisible();
  await expect(page.getByTestId('train-status')).toHaveText('finished', { timeout: 360_000 });

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
  await expect(page.getByTestId('submit-status')).toContainText(`accepted: ${SEEDS} of ${SEEDS} episodes verified, ${SEEDS} ranked`, { timeout: 300_000 });

  // The in-browser trainer plays a live ticket: the server played it, so the default board ranks it.
  await page.goto('/leaderboard?suite=all');
  const row = page.getByTestId('leaderboard').locator(`tr[data-agent="${agent}"]`);
  await expect(row).toBeVisible();
  await expect(row.locator('[data-badge=verified]')).toBeVisible();
  await expect(row.locator('[data-badge=ticketed]')).toBeVisible();
  // The submission said how it was trained: a game-specific preset, labelled in the Settings column.
  await expect(row).toContainText('game-specific');
});
