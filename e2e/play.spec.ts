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

test('a visitor names themself, plays a seed the server drew through real key presses, and counts for the reference once an admin accepts them', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const policy = (await import('../games/snake/scripted-agent')).default;
  const player = `e2e-visitor-${Date.now()}`;

  // No token: a name of one's own is enough to draw a seed.
  await page.goto('/play/snake');
  await expect(page.getByTestId('play-status')).toHaveText('Your move');
  await page.getByLabel('Player name').fill(player);
  await page.getByRole('button', { name: 'Get a ticket' }).click();
  // The first request that needs the database may open (and create) it.
  await expect(page.getByTestId('play-ticket')).toContainText(/Ticket tkt_\S+: seed \d+, drawn by the server/, { timeout: 60_000 });
  await expect(page.getByTestId('play-ticket')).toContainText(`Playing as ${player} (a candidate`);
  const seed = /seed (\d+)/.exec((await page.getByTestId('play-ticket').textContent()) ?? '')![1];
  await expect(page.getByTestId('play-seed')).toHaveText(seed);
  await expect(page.getByTestId('play-status')).toHaveText('Your move');
  await page.getByTestId('play-stage').click();
  const frame = page.frames().find((f) => f.url().includes('/games/snake/'))!;
  const KEYS = ['ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft'];
  for (let step = 0; step < 100; step++) {
    if ((await page.getByTestId('play-status').textContent()) === 'Episode over') break;
    // The "human" looks at the board (the same state the verifier reads) and presses a key.
    const state = await frame.evaluate(() => (globalThis as unknown as { __arcadeVerifier: { read(w: Window): unknown } }).__arcadeVerifier.read(window));
    const action = policy(state as Parameters<typeof policy>[0], { step, manifest: undefined as never, random: () => 0.5 });
    await page.keyboard.press(typeof action === 'number' && action < 4 ? KEYS[action] : 'x');
    await expect(page.getByTestId('play-step')).toHaveText(String(step + 1));
  }
  await expect(page.getByTestId('play-status')).toHaveText('Episode over');
  const finalScore = Number(await page.getByTestId('play-score').textContent());
  expect(finalScore).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('play-submit')).toHaveText(/Accepted: verified, ticketed and ranked; it counts for the reference once an admin accepts you/, {
    timeout: 120_000,
  });
  await page.goto('/games/snake');
  await expect(page.locator('[data-reference=human]')).not.toContainText(player);

  // An admin accepts the player: the reference now rests on their play, provisional until five players have played.
  const env = { ...process.env, ARCADE_DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e', FORCE_COLOR: '0' };
  const token = (
    await promisify(execFile)('npx', ['arcade-gym', 'token', 'create', '--admin', '--name', `play-e2e-${Date.now()}`, '--server', baseURL!], { env })
  ).stdout.trim();
  const listed = await page.request.get('/api/admin/human-players', { headers: { authorization: `Bearer ${token}` } });
  expect(listed.status()).toBe(200);
  const candidate = ((await listed.json()) as { players: { name: string; status: string; games: { gameId: string; meanScore: number }[] }[] }).players.find(
    (p) => p.name === player,
  );
  expect(candidate).toMatchObject({ status: 'candidate', games: [{ gameId: 'snake', meanScore: finalScore }] });
  const decided = await page.request.post('/api/admin/human-players', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: player, status: 'accepted' },
  });
  expect(decided.status()).toBe(200);
  await page.goto('/games/snake');
  const human = page.locator('[data-reference=human]');
  await expect(human).toContainText(player);
  await expect(human).toContainText(/provisional.*Provisional until 5 accepted players have played/s);
});
