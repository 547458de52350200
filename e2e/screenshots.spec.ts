import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { makeEnv } from '../gym';
import { replayActions } from '../gym/eval';
import { screenshotContent } from './visual';

const recordFile = path.join(os.tmpdir(), `arcade-screens-${process.pid}.json`);

test.beforeAll(async () => {
  const env = makeEnv({ game: 'snake', seed: 2, observation: 'state', maxSteps: 40 });
  writeFileSync(recordFile, JSON.stringify(await replayActions(env, 2, [0, 4, 4, 3, 4, 4, 2, 4, 1, 4, 4, 0])));
  await env.close();
});

async function loadRecord(page: Page) {
  await page.locator('input[type=file]').setInputFiles(recordFile);
  await page.getByLabel('Scrub').fill('8');
}

const PAGES: { name: string; path: string; ready: string; prepare?: (page: Page) => Promise<void> }[] = [
  { name: 'home', path: '/', ready: 'canvas, iframe' },
  { name: 'game', path: '/games/snake', ready: 'table' },
  { name: 'play', path: '/play/snake?seed=1', ready: '[data-testid=play-stage] iframe' },
  { name: 'replay', path: '/replay', ready: 'input[type=file]', prepare: loadRecord },
];

for (const p of PAGES) {
  for (const viewport of [
    { width: 1280, height: 800, label: 'laptop' },
    { width: 390, height: 844, label: 'phone' },
  ]) {
    test(`${p.name} page renders real content on a ${viewport.label}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(p.path);
      await page.locator(p.ready).first().waitFor();
      await p.prepare?.(page);
      await page.waitForTimeout(500);
      mkdirSync('test-results/screens', { recursive: true });
      const png = await page.screenshot({ path: `test-results/screens/${p.name}-${viewport.label}.png`, fullPage: true });
      const content = await screenshotContent(page, png);
      expect(content.colours).toBeGreaterThan(20);
      expect(content.nonBackground).toBeGreaterThan(0.03);
      // Nothing overflows sideways on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(1);
    });
  }
}
