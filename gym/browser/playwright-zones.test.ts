import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './launch';
import { openPageChannel } from './cdp-channel';
import { playwrightZoneStorageFound, playwrightZonesEnabled, quietPlaywrightZones } from './playwright-zones';

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
  await page.setContent('<script>window.n = 0;</script>');
});
afterAll(async () => {
  await browser.close();
});

describe("Playwright's zone storage", () => {
  it('is found in the pinned playwright-core (an upgrade that moves it fails here, not silently in the benches)', () => {
    expect(playwrightZoneStorageFound()).toBe(true);
  });

  it('is turned off by a raw channel call and on again by the next Playwright call, which works as before', async () => {
    const channel = await openPageChannel(page);
    expect(channel.kind).toBe('raw');
    await page.evaluate(() => (window as unknown as { n: number }).n++);
    expect(playwrightZonesEnabled()).toBe(true);

    expect(await channel.evaluate<number>('++window.n')).toBe(2);
    expect(playwrightZonesEnabled()).toBe(false);

    expect(await page.evaluate(() => ++(window as unknown as { n: number }).n)).toBe(3);
    expect(playwrightZonesEnabled()).toBe(true);
    await channel.close();
  });

  it('can be turned off while Playwright calls are in flight: they and the calls made inside them finish as usual', async () => {
    const calls = Promise.all([
      page.goto('data:text/html,<title>after</title><script>window.n = 40</script>'),
      page.waitForFunction(() => (window as unknown as { n?: number }).n === 40),
    ]);
    quietPlaywrightZones();
    expect(playwrightZonesEnabled()).toBe(false);
    await calls;
    expect(await page.title()).toBe('after');
    expect(await page.evaluate(() => (window as unknown as { n: number }).n + 2)).toBe(42);
  });
});
