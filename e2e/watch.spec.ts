import { expect, test } from '@playwright/test';
import { startGymServer, type GymServer } from '../gym/server';
import { GYM_PORT } from '../playwright.config';

let gym: GymServer;
let sessionId = '';
let stepping = true;
let loop: Promise<void>;

test.beforeAll(async () => {
  gym = await startGymServer({ port: GYM_PORT, sessions: { pool: { maxBrowsers: 1, pagesPerBrowser: 2 }, maxSessions: 2 } });
  const created = (await (
    await fetch(`${gym.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'snake', observation: 'state', maxSteps: 100_000 }),
    })
  ).json()) as { session: { id: string } };
  sessionId = created.session.id;
  const session = gym.sessions.get(sessionId);
  await session.reset({ seed: 2 });
  // An agent stepping the session in the background, slowly enough to be watched.
  loop = (async () => {
    for (let i = 0; stepping; i++) {
      const r = await session.step([0, 1, 2, 3][Math.floor(i / 3) % 4]);
      if (r.terminated || r.truncated) await session.reset();
      await new Promise((res) => setTimeout(res, 60));
    }
  })();
});

test.afterAll(async () => {
  stepping = false;
  await loop;
  await gym.close();
});

test('the watch page lists the running session, and its live view shows changing frames', async ({ page, context }) => {
  await page.goto('/watch');
  const row = page.locator(`[data-session="${sessionId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('snake');
  await row.getByRole('link').click();
  await expect(page.getByTestId('watch-connection')).toHaveText('Live');
  const frame = page.getByTestId('watch-frame');
  await expect(frame).toBeVisible();
  const first = await frame.getAttribute('src');
  await expect.poll(async () => (await frame.getAttribute('src')) !== first, { timeout: 10_000 }).toBe(true);
  await expect(page.getByTestId('watch-step')).not.toHaveText('—');
  expect(gym.sessions.get(sessionId).watch.watchers).toBe(1);

  // Closing the page ends the stream: the session stops publishing.
  await page.close();
  await expect.poll(() => gym.sessions.get(sessionId).watch.watchers, { timeout: 10_000 }).toBe(0);
  void context;
});

test('the stream of an unknown session answers 404 through the site', async ({ page }) => {
  // The session list comes from the server; a missing session's stream answers 404 through the proxy.
  const r = await page.request.get('/api/watch/no-such-session');
  expect(r.status()).toBe(404);
});
