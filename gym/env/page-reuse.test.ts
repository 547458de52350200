import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser/launch';
import { GAME_ORIGIN } from '../browser/serve-files';
import { leak, look } from '../testing/episode-leaks';
import { makeEnv, type ArcadeEnv } from './env';
import { canonicalJson } from '../schema/records';

/**
 * Resets reuse the episode's page (gym/env/env.ts, recycleTab). Here the page plays a game
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

  it("serves the game over the tab's own channel, so the next episode in the tab takes the game's script from the browser's cache", async () => {
    const env = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 12 }, browser);
    try {
      await env.reset({ seed: 1 });
      const page = env.currentPage!;
      // An observer's session: it sees the tab's requests without intercepting them.
      const cdp = await page.context().newCDPSession(page);
      const paths = new Map<string, string>();
      const fromCache = new Set<string>();
      cdp.on('Network.requestWillBeSent', (e) => {
        const url = new URL(e.request.url);
        if (url.origin === GAME_ORIGIN) paths.set(e.requestId, url.pathname);
      });
      cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
      await cdp.send('Network.enable');
      await env.reset({ seed: 2 });
      expect(env.currentPage).toBe(page);
      const asked = [...paths].filter(([id]) => !fromCache.has(id)).map(([, p]) => p);
      const cached = [...paths].filter(([id]) => fromCache.has(id)).map(([, p]) => p);
      // The document is asked for again (it is not cached); its scripts are not.
      expect(asked).toEqual(['/games/snake/index.html']);
      expect(cached.sort()).toEqual(['/games/snake/game.js', '/runtime/arcade-runtime.js', '/verifiers/snake.js']);
      await cdp.detach();
    } finally {
      await env.close();
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
