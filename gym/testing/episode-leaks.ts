import type { Page } from 'playwright-core';

/**
 * What a game could carry from one episode into the next through a tab, for the tests of page
 * reuse and spare tabs (gym/env/page-reuse.test.ts, spare-page.test.ts): `leak` tries all of it
 * from an episode's page, `look` reads what the next episode's document can see.
 */

/** What a document can see of earlier episodes. */
export const look = (page: Page) =>
  page.evaluate(async () => {
    const opfs = navigator.storage?.getDirectory ? await navigator.storage.getDirectory() : null;
    const opfsNames: string[] = [];
    if (opfs) for await (const name of (opfs as unknown as { keys(): AsyncIterable<string> }).keys()) opfsNames.push(name);
    return {
      name: window.name,
      historyLength: history.length,
      historyState: history.state as unknown,
      url: location.href,
      caches: typeof caches === 'object' ? await caches.keys() : [],
      opfs: opfsNames,
      localStorage: localStorage.length,
      cookie: document.cookie,
      navigationType: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type,
      referrer: document.referrer,
      leakedTimer: (globalThis as Record<string, unknown>).leakedTimer ?? null,
    };
  });

/** Everything an episode could try to leave behind: the tab's state, real storage, a popup, a message, a timer. */
export const leak = (page: Page) =>
  page.evaluate(async () => {
    window.name = 'leaked-name';
    history.pushState({ leaked: 1 }, '', '?leaked=1');
    history.pushState({ leaked: 2 }, '', '#leaked');
    localStorage.setItem('leaked', '1');
    // biome-ignore lint/suspicious/noDocumentCookie: a game writing its cookie the plain way is what is tested
    document.cookie = 'leaked=1';
    if (typeof caches === 'object') await (await caches.open('leaked')).put('/leaked', new Response('x'));
    if (navigator.storage?.getDirectory) await (await navigator.storage.getDirectory()).getFileHandle('leaked', { create: true });
    // Other documents of the same storage partition would hear it.
    new BroadcastChannel('arcade-leak').postMessage('leaked');
    // A window the game opened: through `opener` it could reach into the next episode's document.
    window.open('/games/snake/index.html', 'leaked-popup');
    // Its timers, were they real, would fire into the next episode.
    setTimeout(() => ((globalThis as Record<string, unknown>).leakedTimer = true), 1);
  });
