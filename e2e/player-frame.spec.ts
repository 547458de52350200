import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { makeEnv } from '../gym';
import { createScriptedAgent } from '../gym/agents';
import { runEpisode } from '../gym/eval';
import { CATALOG_PATH } from '../gym/paths';
import type { Catalog, EpisodeRecord } from '../gym/schema';

/**
 * The site's player gives the game exactly the manifest's viewport (the headless gym's page
 * size), and when a replayed final frame still differs, it names the setting that differs.
 */

const catalog = JSON.parse(readFileSync(CATALOG_PATH, 'utf8')) as Catalog;
let record: EpisodeRecord;

test.beforeAll(async () => {
  const env = makeEnv({ game: 'snake', seed: 9, observation: 'state', maxSteps: 12 });
  record = await runEpisode(env, await createScriptedAgent('snake'), 9);
  await env.close();
});

function recordFile(r: EpisodeRecord, name: string): string {
  const file = path.join(os.tmpdir(), `arcade-frame-${process.pid}-${name}.json`);
  writeFileSync(file, JSON.stringify(r));
  return file;
}

/** The game page's own view of its window: the layout viewport a responsive game lays out for. */
async function innerSize(page: Page, iframe: string) {
  const frame = page.locator(iframe).contentFrame();
  return frame.locator('html').evaluate(() => ({ width: innerWidth, height: innerHeight, clientWidth: document.documentElement.clientWidth }));
}

test('the replay iframe is exactly the manifest’s viewport', async ({ page }) => {
  await page.goto('/replay');
  await page.locator('input[type=file]').setInputFiles(recordFile(record, 'honest'));
  await expect(page.getByTestId('replay-step')).toHaveText('0');
  const snake = catalog.games.find((g) => g.manifest.id === 'snake')!.manifest.canvas;
  expect(await innerSize(page, '.replay-stage iframe')).toEqual({ width: snake.width, height: snake.height, clientWidth: snake.width });
  expect(record.viewport).toEqual({ width: snake.width, height: snake.height });
});

test('the play iframe is exactly the manifest’s viewport, for every viewport shape, on a wide and a narrow screen', async ({ page }) => {
  // One game per distinct viewport (bounded), canvas and DOM games alike.
  const seen = new Set<string>();
  const games = catalog.games.filter((g) => {
    const key = `${g.manifest.canvas.width}x${g.manifest.canvas.height}`;
    if (seen.has(key) || seen.size >= 6) return false;
    seen.add(key);
    return true;
  });
  for (const screen of [
    { width: 1280, height: 900 },
    { width: 360, height: 800 },
  ]) {
    await page.setViewportSize(screen);
    for (const g of games) {
      const { width, height } = g.manifest.canvas;
      await page.goto(`/play/${g.manifest.id}?seed=1`);
      await expect(page.getByTestId('play-status')).toHaveText('Your move');
      expect(await innerSize(page, '[data-testid=play-stage] iframe'), `${g.manifest.id} on a ${screen.width} px screen`).toEqual({
        width,
        height,
        clientWidth: width,
      });
    }
  }
});

test('a final frame that differs names the setting that differs', async ({ page }) => {
  const forged = (name: string, change: (r: EpisodeRecord) => void) => {
    const r = JSON.parse(JSON.stringify(record)) as EpisodeRecord;
    r.finalFrameHash = 'f'.repeat(r.finalFrameHash.length);
    change(r);
    return recordFile(r, name);
  };
  const cases = [
    { file: forged('viewport', (r) => (r.viewport = { width: 640, height: 480 })), says: 'viewport 400×400 here, 640×480 in the record' },
    { file: forged('scale', (r) => (r.deviceScaleFactor = 2)), says: 'device scale 1 here, 2 in the record' },
    { file: forged('browser', (r) => (r.browser = { name: 'chromium', version: '99.0.1.2' })), says: 'in the record' },
    { file: forged('same', () => undefined), says: 'the same viewport, device scale and browser version' },
  ];
  const settings = ['viewport', 'device scale', 'browser'];
  for (const [i, c] of cases.entries()) {
    await page.goto('/replay');
    await page.locator('input[type=file]').setInputFiles(c.file);
    await page.getByLabel('Scrub').fill(String(record.actions.length));
    await expect(page.locator('.replay-stage')).toHaveAttribute('data-position', String(record.actions.length));
    // The steps themselves still match: only the frame is blamed.
    await expect(page.getByTestId('replay-status')).toContainText('matches the record');
    const message = page.getByTestId('replay-frame');
    await expect(message).toContainText(c.says);
    const text = (await message.textContent()) ?? '';
    // Exactly the setting that differs is named (the last case names none as different).
    for (const [j, s] of settings.entries()) expect(new RegExp(`${s} [^;]* here`).test(text), `"${text}" about ${s}`).toBe(i === j);
  }
  // The browser case names both versions.
  await page.goto('/replay');
  await page.locator('input[type=file]').setInputFiles(cases[2].file);
  await page.getByLabel('Scrub').fill(String(record.actions.length));
  await expect(page.getByTestId('replay-frame')).toContainText(/browser Chromium [\d.]+ here, Chromium 99\.0\.1\.2 in the record/);
});
