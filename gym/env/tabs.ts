/**
 * The browser tabs an env's episodes play in: a context holding one page, opened fresh for a
 * game and seed or cleaned in place for the next episode, and how to tell a tab that is gone.
 * Which tab plays which episode (the current one, spares, recycling) is the env's (env.ts).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CatalogEntry } from '../catalog-schema';
import { ArcadeGymError } from '../errors';
import { PUBLIC_DIR } from '../paths';
import { serveFiles } from '../browser/serve-files';
import { serveFilesOverChannel } from '../browser/serve-files-cdp';
import { openPageChannel, type PageChannel } from '../browser/cdp-channel';
import { entryUrl } from '../external/entry-url';
import type { EnvOptions } from './options';

/** Where a reused page waits between episodes: no game script runs there, so nothing of the old episode is left running. */
const BETWEEN_EPISODES_URL = 'about:blank';
/** What a game page is served: the built games, runtime and verifiers. */
const GAME_MOUNTS = [{ prefix: '/', dir: PUBLIC_DIR }];

/** What opening or cleaning a tab needs of its env: the game, the options, and the episode's init script for a seed. */
export interface TabSetup {
  game: CatalogEntry;
  options: EnvOptions;
  initScript: (seed: number) => string;
}

/**
 * Playwright's errors for a page that is gone, as the gym's: a renderer crash ("Target
 * crashed"), or the page, its context or its browser closed under it (browser killed or
 * disconnected). Null for anything else, such as an exception thrown by the page's own code.
 * Only the first line is read: Playwright appends the browser's log, which mentions "crash".
 */
const goneByPage = new WeakMap<Page, Promise<never>>();

/** Rejects when the page crashes or closes (its browser going away closes it too). */
function pageGone(page: Page): Promise<never> {
  let gone = goneByPage.get(page);
  if (!gone) {
    gone = new Promise<never>((_, reject) => {
      page.once('crash', () => reject(new Error('Target crashed')));
      page.once('close', () => reject(new Error('Target closed')));
    });
    gone.catch(() => undefined);
    goneByPage.set(page, gone);
  }
  return gone;
}

/** A browser context holding one page for one episode's game document. */
export interface Tab {
  context: BrowserContext;
  page: Page;
  /** The gym's own CDP channel to the page; null where it could not be opened. */
  channel: PageChannel | null;
  /** The episode's init script (runtime, seed, verifier), removed when the tab is reused for another episode. */
  episodeScript: { dispose(): Promise<void> } | null;
}

export function closeTab(tab: Tab): Promise<void> {
  void tab.channel?.close();
  return tab.context.close().catch(() => undefined);
}

export function pageFaultOf(e: unknown, gameId: string): ArcadeGymError | null {
  const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
  if (/has been closed|has disconnected|Target closed|Session closed|Browser closed|context was destroyed|Connection closed/i.test(message)) {
    return new ArcadeGymError('PAGE_CRASHED', `${gameId}: the page or its browser went away (${message})`);
  }
  if (/crash/i.test(message)) return new ArcadeGymError('PAGE_CRASHED', `${gameId}: the page crashed (${message})`);
  return null;
}

/** Whether a tab can carry an episode: it answered last time, over the gym's raw channel, in the browser episodes now use. */
export function tabUsable(browser: Browser | null, tab: Tab | null): tab is Tab {
  return (
    !!tab &&
    !!tab.channel &&
    tab.channel.kind === 'raw' &&
    !tab.channel.isGone &&
    !tab.page.isClosed() &&
    tab.context.browser() === browser &&
    !!tab.episodeScript
  );
}

/**
 * A new episode in the same tab, as clean as a fresh context: the old document is left
 * for a blank one first (its unload handlers run, its timers and workers end), then
 * windows it opened are closed, the origin's real storage (Cache Storage, the file system,
 * anything the in-memory storage of gym/runtime does not cover) is cleared, the tab's
 * history and name are reset, and the game is loaded again with the new episode's script.
 * A fresh page's history also holds its blank page and the game, so `history.length` is
 * the same either way.
 */
export async function recycleTab(setup: TabSetup, tab: Tab, seed: number, current: () => void): Promise<void> {
  const { page, context } = tab;
  const channel = tab.channel!;
  const timeout = setup.options.resetTimeoutMs;
  await page.goto(BETWEEN_EPISODES_URL, { waitUntil: 'load', timeout });
  current();
  await Promise.all([
    ...context
      .pages()
      .filter((p) => p !== page)
      .map((p) => p.close()),
    channel.send('Storage.clearDataForOrigin', { origin: new URL(entryUrl(setup.game)).origin, storageTypes: 'all' }),
    channel.send('Page.resetNavigationHistory'),
    // window.name survives same-tab navigations; the blank page runs no game code, so this is the real setter.
    channel.evaluate("window.name = ''"),
    tab.episodeScript!.dispose(),
  ]);
  tab.episodeScript = null;
  current();
  tab.episodeScript = await context.addInitScript({ content: setup.initScript(seed) });
  current();
  await page.goto(entryUrl(setup.game), { waitUntil: 'load', timeout });
  current();
}

/**
 * A fresh browser context and page with the game loaded for `seed`. `onContext` hears of the
 * context as soon as it exists, so that an abandoned reset can close it (Playwright waits
 * forever for a page whose renderer dies while it is being created; closing its context ends that).
 */
export async function openTab(
  setup: TabSetup,
  browser: Browser,
  seed: number,
  current: () => void = () => undefined,
  onContext?: (c: BrowserContext) => void,
): Promise<Tab> {
  const m = setup.game.manifest;
  const context = await browser.newContext({
    viewport: { width: m.canvas.width, height: m.canvas.height },
    deviceScaleFactor: setup.options.deviceScaleFactor,
    serviceWorkers: 'block',
  });
  onContext?.(context);
  try {
    current();
    const episodeScript = await context.addInitScript({ content: setup.initScript(seed) });
    current();
    const page = await context.newPage();
    current();
    pageGone(page);
    const channel = await openPageChannel(page).catch(() => null);
    current();
    // Through the page's own channel where there is one (serve-files-cdp.ts): Playwright's route
    // handler costs this process work per request and turns the HTTP cache off, so a reused
    // tab's next episode would fetch the game's scripts again.
    if (channel) await serveFilesOverChannel(channel, GAME_MOUNTS);
    else await serveFiles(context, GAME_MOUNTS);
    current();
    await page.goto(entryUrl(setup.game), { waitUntil: 'load', timeout: setup.options.resetTimeoutMs });
    const tab = { context, page, channel, episodeScript };
    current();
    return tab;
  } catch (e) {
    void context.close().catch(() => undefined);
    throw e;
  }
}
