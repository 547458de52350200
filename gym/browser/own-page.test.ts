import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../testing/harness';
import { openPageChannel, type PageChannel } from './cdp-channel';
import { navigateOwnPage, openOwnPage, ownPagesOpen } from './own-page';
import { GAME_ORIGIN } from './serve-files';
import { serveFilesOverChannel } from './serve-files-cdp';

const gym = useBrowser();

/** What a game could read of its surroundings: window, screen, focus, media features, fonts, service workers. */
const PROBE = `(() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const widthIn = (family) => { ctx.font = '20px ' + family; return ctx.measureText('Arcade Gym 0123456789').width; };
  return JSON.stringify({
    inner: [innerWidth, innerHeight, outerWidth, outerHeight, devicePixelRatio],
    screen: [screen.width, screen.height, screen.availWidth, screen.availHeight, screen.orientation.type, screen.orientation.angle],
    focus: document.hasFocus(),
    media: ['(prefers-color-scheme: light)', '(prefers-reduced-motion: no-preference)', '(forced-colors: none)', '(prefers-contrast: no-preference)', '(hover: hover)', '(pointer: fine)']
      .map((q) => matchMedia(q).matches),
    fonts: ['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui'].map(widthIn),
    serviceWorkers: String(navigator.serviceWorker && ServiceWorkerContainer.prototype.register).includes('blocked'),
    webdriver: navigator.webdriver,
    language: navigator.language,
  });
})()`;

/** At the games' origin (a secure one: service workers exist there), served over each page's own channel. */
const PAGE = `${GAME_ORIGIN}/probe.html`;
const serve = (channel: PageChannel) =>
  serveFilesOverChannel(channel, [], { '/probe.html': '<!doctype html><body><iframe width="200" height="100" srcdoc="<p>frame</p>"></iframe></body>' });

/** The execution contexts (worlds) created while `url` loads, by name ('' for a document's own). */
async function worldsWhileLoading(channel: PageChannel, navigate: () => Promise<unknown>): Promise<string[]> {
  const names: string[] = [];
  channel.on('Runtime.executionContextCreated', (p) => names.push(String((p.context as { name?: string }).name ?? '')));
  await channel.send('Runtime.enable');
  names.length = 0;
  await navigate();
  await channel.send('Runtime.disable');
  return names;
}

async function playwrightPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 320, height: 240 }, deviceScaleFactor: 2, serviceWorkers: 'block' });
  const page = await context.newPage();
  return { page, context, channel: await openPageChannel(page) };
}

describe('own pages (made without Playwright)', () => {
  it("show a game what a Playwright context's page shows", async () => {
    const browser = await gym.browser();
    const own = (await openOwnPage(browser, { width: 320, height: 240, deviceScaleFactor: 2 }))!;
    const pw = await playwrightPage(browser);
    try {
      await Promise.all([serve(own.channel), serve(pw.channel)]);
      await navigateOwnPage(own.channel, PAGE);
      await pw.page.goto(PAGE);
      const seen = await own.channel.evaluate<string>(PROBE);
      expect(JSON.parse(seen)).toMatchObject({ focus: true, serviceWorkers: true });
      expect(JSON.parse(seen).inner.slice(0, 2)).toEqual([320, 240]);
      expect(JSON.parse(seen).inner[4]).toBe(2);
      expect(seen).toBe(await pw.channel.evaluate<string>(PROBE));
    } finally {
      await own.close();
      await pw.context.close();
    }
  }, 60_000);

  it('carry no Playwright world: a frame load creates one V8 context, not two', async () => {
    const browser = await gym.browser();
    const own = (await openOwnPage(browser, { width: 320, height: 240, deviceScaleFactor: 1 }))!;
    const pw = await playwrightPage(browser);
    try {
      await Promise.all([serve(own.channel), serve(pw.channel)]);
      const ownWorlds = await worldsWhileLoading(own.channel, () => navigateOwnPage(own.channel, PAGE));
      const pwWorlds = await worldsWhileLoading(pw.channel, () => pw.page.goto(PAGE));
      // The page and its frame: their documents' own worlds only.
      expect(ownWorlds).toEqual(['', '']);
      // Playwright adds its utility world to both.
      expect(pwWorlds.filter((n) => n === '')).toHaveLength(2);
      expect(pwWorlds.filter((n) => n.includes('utility')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await own.close();
      await pw.context.close();
    }
  }, 60_000);

  it('are counted while open, and closing one disposes its browser context', async () => {
    const browser = await gym.browser();
    const before = ownPagesOpen(browser);
    const own = (await openOwnPage(browser, { width: 100, height: 100, deviceScaleFactor: 1 }))!;
    expect(ownPagesOpen(browser)).toBe(before + 1);
    // Playwright does not list it.
    expect(browser.contexts().flatMap((c) => c.pages())).toHaveLength(0);
    const { targetId } = await own.channel.send<{ targetInfo: { targetId: string } }>('Target.getTargetInfo').then((r) => r.targetInfo);
    await own.close();
    expect(ownPagesOpen(browser)).toBe(before);
    expect(own.channel.isGone).toBe(true);
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string }[] };
    await cdp.detach();
    expect(targetInfos.map((t) => t.targetId)).not.toContain(targetId);
  }, 60_000);
});
