import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../browser/launch';
import { makeEnv, type ArcadeEnv } from './env';
import { canonicalJson } from '../schema/records';

/**
 * Resets reuse the episode's page (gym/env/env.ts, recyclePage). Here the page plays a game
 * that tries to carry things into the next episode through everything a tab keeps across
 * navigations; the next episode must see none of it, and play exactly as on a fresh page.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What the next episode's document can see of earlier ones. */
const look = (page: Page) =>
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
    };
  });

/** Everything a game could try to leave behind for the next episode. */
const leak = (page: Page) =>
  page.evaluate(async () => {
    window.name = 'leaked-name';
    history.pushState({ leaked: 1 }, '', '?leaked=1');
    history.pushState({ leaked: 2 }, '', '#leaked');
    localStorage.setItem('leaked', '1');
    document.cookie = 'leaked=1';
    if (typeof caches === 'object') await (await caches.open('leaked')).put('/leaked', new Response('x'));
    if (navigator.storage?.getDirectory) await (await navigator.storage.getDirectory()).getFileHandle('leaked', { create: true });
    // A window the game opened: through `opener` it could reach into the next episode's document.
    window.open('/games/snake/index.html', 'leaked-popup');
    // Its timers, were they real, would fire into the next episode.
    setTimeout(() => ((globalThis as Record<string, unknown>).leakedTimer = true), 1);
  });

async function episode(env: ArcadeEnv, seed: number, actions: number[]): Promise<string> {
  await env.reset({ seed });
  let last = '';
  for (const a of actions) {
    const r = await env.step(a);
    if (r.info.episode) last = canonicalJson(r.info.episode);
    if (r.terminated || r.truncated) break;
  }
  return last;
}

describe('a reset reuses its page', () => {
  it('keeps the page, and the next episode sees nothing of the last one', async () => {
    const fresh = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 12 }, browser);
    const reused = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 12 }, browser);
    try {
      const actions = [1, 1, 2, 2, 3, 0, 1, 1, 2, 3, 3, 0];
      const expected = await episode(fresh, 9, actions);
      const clean = await look(fresh.currentPage!);

      await episode(reused, 3, actions);
      const page = reused.currentPage!;
      const popup = page.context().waitForEvent('page', { timeout: 10_000 });
      await leak(page);
      await popup;
      expect((await look(page)).name).toBe('leaked-name'); // the leaks took
      expect(page.context().pages()).toHaveLength(2);

      const record = await episode(reused, 9, actions);
      expect(reused.currentPage).toBe(page); // reused, not a fresh context
      expect(page.context().pages()).toEqual([page]);
      expect(await look(page)).toEqual(clean);
      expect(await page.evaluate(() => (globalThis as Record<string, unknown>).leakedTimer ?? null)).toBeNull();
      expect(record).toBe(expected);
    } finally {
      await fresh.close();
      await reused.close();
    }
  });

  it('falls back to a fresh context after a hung step, and records do not change', async () => {
    const env = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 8, stepTimeoutMs: 1_000 }, browser);
    const ref = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 8 }, browser);
    try {
      const actions = [1, 2, 3, 0, 1, 2, 3, 0];
      await env.reset({ seed: 1 });
      const hung = env.currentPage!;
      await hung.evaluate(() => {
        globalThis.__arcade.step = () => {
          for (;;);
        };
      });
      await expect(env.step(1)).rejects.toMatchObject({ code: 'STEP_TIMEOUT' });
      const record = await episode(env, 4, actions);
      expect(env.currentPage).not.toBe(hung);
      expect(record).toBe(await episode(ref, 4, actions));
    } finally {
      await env.close();
      await ref.close();
    }
  });
});
