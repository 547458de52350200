import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { download, fill, launchWith, readMetrics, SNAKE, SNAKE_MARGIN, startAndEnd, waitForUpdates } from './train-helpers';

test.use({ launchOptions: launchWith(['--disable-features=WebGPU']) });

test('CartPole and Snake train on the CPU backend, the page says why, and both improve over their start', async ({ page }) => {
  test.setTimeout(480_000);
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
  await expect(page.getByTestId('train-status')).toHaveText('finished', { timeout: 360_000 });
  const snake = startAndEnd(readMetrics(await download(page, 'metrics.jsonl')).updates);
  expect(snake.end, `return ${snake.start} → ${snake.end}`).toBeGreaterThan(snake.start + SNAKE_MARGIN);
});

test('once the page has loaded, Snake trains with the network gone; Stop ends the run early and its files still download', async ({ page, context }) => {
  test.setTimeout(180_000);
  await page.goto('/train/snake');
  await expect(page.getByTestId('offline')).toHaveText(/Ready to train offline/, { timeout: 60_000 });
  await context.setOffline(true);
  try {
    // 512 updates of 2 × 64 steps: far more than can run before Stop, on a fast machine too.
    await fill(page, { steps: 65_536, envs: 2, seed: 4 });
    await page.getByRole('button', { name: 'Train' }).click();
    await waitForUpdates(page, 2);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByTestId('train-status')).toHaveText('finished', { timeout: 60_000 });
    const { updates } = readMetrics(await download(page, 'metrics.jsonl'));
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.length).toBeLessThan(512);
    expect(
      readFileSync(await download(page, 'policy.agckpt'))
        .subarray(0, 8)
        .toString(),
    ).toBe('AGYMCKPT');
    expect(
      readFileSync(await download(page, 'checkpoint.agckpt'))
        .subarray(0, 8)
        .toString(),
    ).toBe('AGYMCKPT');
  } finally {
    await context.setOffline(false);
  }
});
