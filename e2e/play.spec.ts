import { expect, test } from '@playwright/test';

test('a person plays Snake with real key presses, one press per step, until the game ends', async ({ page }) => {
  await page.goto('/play/snake?seed=3');
  await expect(page.getByTestId('play-status')).toHaveText('Your move');
  await expect(page.getByTestId('play-seed')).toHaveText('3');
  const stage = page.getByTestId('play-stage');
  await stage.click();
  // Up from the middle of a 20-row board: ten moves reach the top row, the eleventh hits the wall.
  for (let i = 1; i <= 10; i++) {
    await page.keyboard.press('ArrowUp');
    await expect(page.getByTestId('play-step')).toHaveText(String(i));
  }
  await expect(page.getByTestId('play-status')).toHaveText('Your move');
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('play-status')).toHaveText('Episode over');
  await expect(page.getByText(/Final score 0 in 11 steps/)).toBeVisible();
});

test('on-screen buttons play the preset on touch screens', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/play/snake?seed=4');
  await expect(page.getByTestId('play-status')).toHaveText('Your move');
  await page.getByRole('button', { name: 'down', exact: true }).click();
  await page.getByRole('button', { name: 'noop', exact: true }).click();
  await expect(page.getByTestId('play-step')).toHaveText('2');
});
