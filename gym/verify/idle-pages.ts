import os from 'node:os';
import type { Browser } from 'playwright-core';
import { BatchedPage, type BatchedPageOptions } from '../batch/batched-page';
import type { CatalogEntry } from '../catalog-schema';

/**
 * Batch pages kept open between verifications, per browser, game build and device scale
 * factor. Opening one (a browser context, its route handler, the host page) costs about as
 * much CPU as replaying a 100-step episode, and a server verifies submission after submission
 * in the same browser. A page comes back only from a replay that ended without a fault, and is
 * recycled first (its frames dropped, the origin's real storage cleared): every episode still
 * loads a fresh game document, as a reset in the batched gym does. Idle pages close after
 * `IDLE_MS` (the timer does not keep the process alive) or when more than `MAX_IDLE` wait in
 * their browser (the oldest first), and die with their browser.
 */
const IDLE_MS = 30_000;
/** Idle pages kept per browser, all games together (a suite's verification touches many games). */
const MAX_IDLE = 2 * os.availableParallelism();

interface Idle {
  key: string;
  page: BatchedPage;
  /** The recycling, which a taker waits for; it rejects if the page failed it. */
  ready: Promise<void>;
  timer: NodeJS.Timeout;
}

/** Per browser, oldest first. */
const idleByBrowser = new WeakMap<Browser, Idle[]>();

function keyOf(game: CatalogEntry, options: BatchedPageOptions): string {
  return `${game.manifest.id}@${game.manifest.version}/${game.verifierChecksum}/${options.deviceScaleFactor}/${options.stepTimeoutMs}/${options.resetTimeoutMs}`;
}

function idleList(browser: Browser): Idle[] {
  let list = idleByBrowser.get(browser);
  if (!list) idleByBrowser.set(browser, (list = []));
  return list;
}

function drop(list: Idle[], idle: Idle): void {
  const at = list.indexOf(idle);
  if (at >= 0) list.splice(at, 1);
  clearTimeout(idle.timer);
}

/** An idle page of this game build in `browser` if one is usable, else a newly opened one. */
export async function takePage(browser: Browser, game: CatalogEntry, options: BatchedPageOptions): Promise<BatchedPage> {
  const list = idleList(browser);
  const key = keyOf(game, options);
  for (let idle = list.findLast((i) => i.key === key); idle; idle = list.findLast((i) => i.key === key)) {
    drop(list, idle);
    const recycled = await idle.ready.then(
      () => true,
      () => false,
    );
    if (recycled && idle.page.usable) return idle.page;
    await idle.page.close();
  }
  return BatchedPage.open(browser, game, options);
}

/**
 * Hands back a page whose replay of `slots` ended without a fault (anything else is closed, not
 * handed back). At most two pages per core wait in a browser; past that the oldest is closed.
 */
export function givePage(page: BatchedPage, slots: readonly number[], options: BatchedPageOptions): void {
  if (!page.usable) {
    void page.close();
    return;
  }
  const list = idleList(page.browser);
  const idle: Idle = {
    key: keyOf(page.game, options),
    page,
    ready: page.recycle(slots),
    timer: setTimeout(() => {
      drop(list, idle);
      void page.close();
    }, IDLE_MS),
  };
  idle.ready.catch(() => undefined);
  idle.timer.unref();
  list.push(idle);
  while (list.length > MAX_IDLE) {
    const oldest = list[0];
    drop(list, oldest);
    void oldest.page.close();
  }
}
