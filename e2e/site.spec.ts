import { expect, test } from '@playwright/test';

test('home page lists the games with links to play them', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Arcade Gym' })).toBeVisible();
  const snake = page.locator('[data-game="snake"]');
  await expect(snake).toBeVisible();
  await snake.getByRole('link', { name: 'Snake' }).click();
  await expect(page.getByRole('heading', { name: 'Snake' })).toBeVisible();
  await expect(page.getByText('Verifier checksum')).toBeVisible();
});

test('a game page served by the site plays in real time for a person', async ({ page }) => {
  await page.goto('/games/snake/index.html');
  const canvas = page.locator('canvas');
  await expect(canvas).toBeVisible();
  // Without ?arcade-seed the runtime stays out of the way: the snake moves on the real clock.
  const head = () => page.evaluate(() => (window as unknown as { snake: { body: { x: number }[] } }).snake.body[0].x);
  const before = await head();
  await page.waitForTimeout(500);
  expect(await head()).toBeGreaterThan(before);
});

test('with ?arcade-seed the page starts paused in virtual time', async ({ page }) => {
  await page.goto('/games/snake/index.html?arcade-seed=3&arcade-width=400&arcade-height=400');
  const state = () => page.evaluate(() => (window as unknown as { snake: { body: { x: number }[]; food: { x: number; y: number } } }).snake);
  const before = await state();
  await page.waitForTimeout(500);
  const after = await state();
  expect(after.body[0].x).toBe(before.body[0].x);
  // Advancing virtual time moves it exactly one cell per 100 ms tick.
  await page.evaluate(() => (globalThis as unknown as { __arcade: { advance(ms: number): void } }).__arcade.advance(300));
  expect((await state()).body[0].x).toBe(before.body[0].x + 3);
});

test('the site serves the gym API OpenAPI document', async ({ request }) => {
  const r = await request.get('/openapi.json');
  expect(r.ok()).toBe(true);
  const doc = (await r.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toMatch(/^3\.1/);
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/sessions', '/v1/sessions/{id}/step', '/v1/sessions/{id}/watch']));
});
