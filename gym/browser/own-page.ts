import type { Browser } from 'playwright-core';
import { rawBrowser, type PageChannel } from './cdp-channel';

/**
 * A page the gym makes itself, in a browser context of its own, over the browser's raw CDP link
 * (gym/browser/cdp-channel.ts) rather than through Playwright.
 *
 * Playwright attaches to every page of the contexts it made: it adds its utility world to every
 * new document (a second V8 context per frame load) and follows every frame's lifecycle over its
 * pipe. A batch page loads a game document per episode in each of its frames, and that costs every
 * reset CPU in Chromium and in Node (`bench:gym`'s batched_reset_cpu_ms; bench/README.md, Design
 * measurements). Playwright detaches from targets in contexts it does not
 * know, so a page made here carries none of that.
 *
 * It also carries none of Playwright's page setup, so `openOwnPage` applies what a Playwright
 * context created with `{ viewport, deviceScaleFactor, serviceWorkers: 'block' }` applies to its
 * pages (playwright-core 1.65, crPage.ts): a game sees the same window, screen, fonts, media
 * features and focus either way. gym/batch's record tests compare every game's records between
 * such a page and a single-instance page in a Playwright context.
 */
export interface OwnPage {
  readonly channel: PageChannel;
  /** Closes the page and its browser context. */
  close(): Promise<void>;
}

export interface OwnPageOptions {
  width: number;
  height: number;
  deviceScaleFactor: number;
}

/** Playwright's default font families for headless Chromium on Linux (crPage.ts platformToFontFamilies). */
const LINUX_FONT_FAMILIES = {
  fontFamilies: {
    standard: 'Times New Roman',
    fixed: 'Monospace',
    serif: 'Times New Roman',
    sansSerif: 'Arial',
    cursive: 'Comic Sans MS',
    fantasy: 'Impact',
  },
};

/** Playwright's default media features (page.emulatedMedia(): light, no-preference, none, no-preference). */
const MEDIA_FEATURES = [
  { name: 'prefers-color-scheme', value: 'light' },
  { name: 'prefers-reduced-motion', value: 'no-preference' },
  { name: 'forced-colors', value: 'none' },
  { name: 'prefers-contrast', value: 'no-preference' },
];

/** What Playwright's `serviceWorkers: 'block'` adds to every document. */
const BLOCK_SERVICE_WORKERS = `if (self.ServiceWorkerContainer) ServiceWorkerContainer.prototype.register = async () => { console.warn('Service Worker registration blocked by Playwright'); };`;

const openPages = new WeakMap<Browser, number>();

/** Pages made by `openOwnPage` and still open in `browser` (Playwright's `contexts()` does not list them). */
export function ownPagesOpen(browser: Browser): number {
  return openPages.get(browser) ?? 0;
}

/**
 * An about:blank page in a fresh browser context of `browser`, set up as a Playwright context's
 * page would be; null when the browser has no local debugging endpoint (a remote browser), is
 * headed, or runs where Playwright's defaults are not known here (only Linux's are): the caller
 * then opens a Playwright context.
 */
export async function openOwnPage(browser: Browser, options: OwnPageOptions): Promise<OwnPage | null> {
  if (process.platform !== 'linux') return null;
  const raw = await rawBrowser(browser);
  // A headed window has a frame whose size depends on the desktop (Playwright adds insets it guesses): not matched here.
  if (!raw?.headless) return null;
  // Disposed with the link too, should this process die without closing it.
  const { browserContextId } = await raw.send<{ browserContextId: string }>('Target.createBrowserContext', { disposeOnDetach: true });
  const dispose = () => raw.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
  try {
    const { targetId } = await raw.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
    const channel = await raw.attach(targetId);
    const { windowId } = await raw.send<{ windowId: number }>('Browser.getWindowForTarget', { targetId });
    const { width, height, deviceScaleFactor } = options;
    // Scripts added with Page.addScriptToEvaluateOnNewDocument run only while the Page domain is on.
    await channel.send('Page.enable');
    await Promise.all([
      channel.send('Emulation.setFocusEmulationEnabled', { enabled: true }),
      channel.send('Emulation.setDeviceMetricsOverride', {
        mobile: false,
        width,
        height,
        screenWidth: width,
        screenHeight: height,
        deviceScaleFactor,
        screenOrientation: { angle: 0, type: 'landscapePrimary' },
      }),
      channel.send('Emulation.setEmulatedMedia', { media: '', features: MEDIA_FEATURES }),
      channel.send('Page.setFontFamilies', LINUX_FONT_FAMILIES),
      // The window is the viewport's size, as Playwright makes it (headless: no window frame): outerWidth and outerHeight.
      raw.send('Browser.setWindowBounds', { windowId, bounds: { width, height } }),
      raw.send('Browser.setDownloadBehavior', { behavior: 'deny', browserContextId }),
      channel.send('Page.addScriptToEvaluateOnNewDocument', { source: BLOCK_SERVICE_WORKERS, runImmediately: true }),
    ]);
    openPages.set(browser, ownPagesOpen(browser) + 1);
    let closed = false;
    return {
      channel,
      close: async () => {
        if (closed) return;
        closed = true;
        openPages.set(browser, ownPagesOpen(browser) - 1);
        await channel.close();
        await dispose();
      },
    };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/**
 * Navigates an own page's main frame to `url` and waits for its load event. Playwright's
 * `page.goto` follows the page's lifecycle events; an own page does not listen to them (they are
 * what it saves), so it asks the new document itself.
 */
export async function navigateOwnPage(channel: PageChannel, url: string): Promise<void> {
  // Answered once the new document has committed (or the navigation failed).
  const { errorText } = await channel.send<{ errorText?: string }>('Page.navigate', { url });
  if (errorText) throw new Error(`navigating to ${url} failed: ${errorText}`);
  await channel.evaluate(`document.readyState === 'complete' || new Promise((resolve) => addEventListener('load', () => resolve(true), { once: true }))`, {
    awaitPromise: true,
  });
}
