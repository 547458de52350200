import type { Page } from 'playwright-core';
import type { PageChannel } from '../browser/cdp-channel';
import type { BrowserPool } from './browser-pool';
import { readCmdline } from './processes';

/**
 * Faults on purpose, for tests and drills: the failures pooled envs must survive. Each one
 * returns what it hit (or null when there was nothing to hit) and never throws.
 */

/**
 * Crashes a page's renderer through the debugger (Page.crash), as a real renderer crash would,
 * and resolves once the page has reported the crash, so that the next call surely meets a dead
 * page (a step sent in between could otherwise still be answered).
 */
export async function crashPage(page: Page, timeoutMs = 10_000): Promise<boolean> {
  try {
    const crashed = new Promise<void>((resolve) => {
      page.once('crash', () => resolve());
      page.once('close', () => resolve());
    });
    const cdp = await page.context().newCDPSession(page);
    // Page.crash never answers: the renderer is gone before it could.
    void cdp.send('Page.crash').catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const ok = await Promise.race([crashed.then(() => true), gaveUp]);
    clearTimeout(timer);
    return ok;
  } catch {
    return false;
  }
}

/**
 * `crashPage` for a page reached only over a CDP channel (a batch page: gym/browser/own-page.ts):
 * resolves once the channel has seen the crash.
 */
export async function crashChannel(channel: PageChannel, timeoutMs = 10_000): Promise<boolean> {
  if (channel.isGone) return false;
  // Page.crash never answers: the renderer is gone before it could.
  void channel.send('Page.crash').catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const ok = await Promise.race([channel.gone.catch(() => true as const), gaveUp]);
  clearTimeout(timer);
  return ok;
}

/**
 * `hangPage` for a page reached only over a CDP channel: a spin sent on the channel the page's
 * steps take, so the next step queues behind it. Whether it was sent (false for a page already gone).
 */
export function hangChannel(channel: PageChannel): boolean {
  if (channel.isGone) return false;
  void channel.evaluate('for (;;) {}').catch(() => undefined);
  return true;
}

/** How long hangPage waits for the page to take the hook before calling it busy. */
const HANG_HOOK_WAIT_MS = 1_000;

/**
 * Makes a page hang: a script that never returns, as a game stuck in an infinite loop would.
 * Steps may travel on another connection than Playwright's (the raw CDP channel), so a spin
 * sent now could be overtaken by the next step; the runtime's `step` is first replaced by the
 * spin, which makes the next step hang whichever message arrives first. Pages without a
 * runtime only get the spin (a batch page: see `hangChannel`).
 */
export async function hangPage(page: Page): Promise<boolean> {
  if (page.isClosed()) return false;
  const hooked = page
    .evaluate(() => {
      const api = (globalThis as { __arcade?: { step: unknown } }).__arcade;
      if (!api) return;
      api.step = () => {
        for (;;) {
          // Spin until the gym stops this script or closes the page.
        }
      };
    })
    .then(
      () => true,
      () => false,
    );
  // A page that is already busy (hung, or mid-reset) does not answer soon: leave it alone.
  let timer: NodeJS.Timeout | undefined;
  const busy = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), HANG_HOOK_WAIT_MS)));
  const ok = await Promise.race([hooked, busy]);
  clearTimeout(timer);
  if (!ok) return false;
  void page
    .evaluate(() => {
      for (;;) {
        // Spin until the gym stops this script or closes the page.
      }
    })
    .catch(() => undefined);
  return true;
}

/** Renderer processes of the pool's browsers. */
export function rendererPids(pool: BrowserPool): number[] {
  return pool.processTree().filter((pid) => readCmdline(pid).includes('--type=renderer'));
}

/** SIGKILLs one renderer process of the pool, chosen with `random`. */
export function killRenderer(pool: BrowserPool, random: () => number = Math.random): number | null {
  return killOneOf(rendererPids(pool), random);
}

/** SIGKILLs one browser process of the pool (every page in it goes with it). */
export function killBrowser(pool: BrowserPool, random: () => number = Math.random): number | null {
  return killOneOf(pool.browserPids(), random);
}

/** SIGKILLs one of `pids`, chosen with `random`: its pid, or null when there is none or it had already gone. */
function killOneOf(pids: number[], random: () => number): number | null {
  if (!pids.length) return null;
  const pid = pids[Math.floor(random() * pids.length)];
  try {
    process.kill(pid, 'SIGKILL');
    return pid;
  } catch {
    return null;
  }
}
