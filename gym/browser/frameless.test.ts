import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { findChromium } from './find-chromium';
import { isHeadlessShell, launchBrowser } from './launch';
import { captureScreenshot } from '../env/screenshot';
import { openPageChannel } from './cdp-channel';

const browsers: Browser[] = [];
afterAll(async () => {
  await Promise.all(browsers.map((b) => b.close()));
});

async function pageIn(executablePath: string): Promise<Page> {
  const browser = await launchBrowser({ executablePath });
  browsers.push(browser);
  const page = await browser.newPage({ viewport: { width: 64, height: 32 } });
  // A page that counts the real animation frames it gets (no gym runtime here).
  await page.setContent(`<body style="margin:0"><canvas id="c" width="64" height="32"></canvas><script>
    window.frames_ = 0; (function f() { frames_++; requestAnimationFrame(f); })();
    const g = c.getContext('2d'); g.fillStyle = '#f00'; g.fillRect(0, 0, 32, 32);
  </script></body>`);
  return page;
}

const framesIn = async (page: Page, ms: number) => {
  const before = (await page.evaluate('frames_')) as number;
  await page.waitForTimeout(ms);
  return ((await page.evaluate('frames_')) as number) - before;
};

/** Two screenshots, before and after the canvas changes: both PNGs, and different. */
async function screenshotsTrackTheCanvas(page: Page) {
  const cdp = await openPageChannel(page);
  const first = await captureScreenshot(page, cdp, { type: 'png' });
  await page.evaluate(`g.fillStyle = '#00f'; g.fillRect(32, 0, 32, 32)`);
  const second = await captureScreenshot(page, cdp, { type: 'png' });
  const again = await captureScreenshot(page, cdp, { type: 'jpeg', quality: 50 });
  expect(first.subarray(1, 4).toString()).toBe('PNG');
  expect(second.subarray(1, 4).toString()).toBe('PNG');
  expect(second.equals(first)).toBe(false);
  expect([again[0], again[1]]).toEqual([0xff, 0xd8]); // JPEG
}

describe('frameless gym browsers', () => {
  const shell = findChromium({ headless: true });

  it('the headless shell draws no frames on its own, and screenshots ask for theirs', async () => {
    expect(isHeadlessShell(shell)).toBe(true);
    const page = await pageIn(shell);
    expect(await framesIn(page, 300)).toBeLessThanOrEqual(1);
    await screenshotsTrackTheCanvas(page);
  });

  it('a browser without that mode keeps its frames, and screenshots fall back to page.screenshot', async () => {
    const chrome = '/usr/bin/chromium';
    expect(existsSync(chrome)).toBe(true);
    expect(isHeadlessShell(chrome)).toBe(false);
    const page = await pageIn(chrome);
    expect(await framesIn(page, 500)).toBeGreaterThan(5);
    await screenshotsTrackTheCanvas(page);
  });
});
