import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser/launch';
import { leak, look } from '../testing/episode-leaks';
import { loadCatalog } from '../catalog';
import { makeEnv, type ArcadeEnv } from './env';
import { canonicalJson } from '../schema/records';
import { SeededRandom } from '../random';

/**
 * Resets without a seed swap to a spare tab loaded in the background (gym/env/env.ts,
 * prepareNextEpisode). The spare's episode must be the one a fresh page plays, byte for byte,
 * and nothing the episode before it did (in its own tab, while the spare waited) may reach it;
 * the old tab, cleaned into the next spare, must come back as clean as a fresh page.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function playOut(env: ArcadeEnv, actions: number[]): Promise<string> {
  for (const a of actions) {
    const r = await env.step(a);
    if (r.info.episode) return canonicalJson(r.info.episode);
  }
  throw new Error('the episode did not end within its actions');
}

const ACTIONS = Array.from({ length: 12 }, (_, i) => (i * 7 + 3) % 4);

describe('a reset without a seed swaps to the spare tab', () => {
  it('plays the next episode of the sequence as a fresh page does, and no episode sees another', async () => {
    // One spare: the tab of episode 1 comes back, cleaned, for episode 3.
    const env = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 12, spares: 1 }, browser);
    const ref = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 12, spares: 0 }, browser);
    try {
      await ref.reset({ seed: 5 });
      await playOut(ref, ACTIONS);
      const clean = await look(ref.currentPage!);

      const first = await env.reset();
      expect(first.info.seed).toBe(5);
      const tab1 = env.currentPage!;
      const [spareSeed] = env.spareSeeds;
      expect(env.spareSeeds).toHaveLength(1);
      await playOut(env, ACTIONS);
      const popup = tab1.context().waitForEvent('page', { timeout: 10_000 });
      await leak(tab1);
      await popup;
      expect((await look(tab1)).name).toBe('leaked-name'); // the leaks took

      // Episode 2: the spare, a context of its own, loaded while episode 1 played and leaked.
      const second = await env.reset();
      expect(second.info.seed).toBe(spareSeed);
      const tab2 = env.currentPage!;
      expect(tab2.context()).not.toBe(tab1.context());
      const record2 = await playOut(env, ACTIONS);
      await ref.reset({ seed: second.info.seed });
      expect(record2).toBe(await playOut(ref, ACTIONS));
      expect({ ...(await look(tab2)), url: '' }).toEqual({ ...clean, url: '' });

      // Episode 3: the first tab again, cleaned in the background into the spare.
      const third = await env.reset();
      expect(env.currentPage).toBe(tab1);
      expect(tab1.context().pages()).toEqual([tab1]);
      const record3 = await playOut(env, ACTIONS);
      expect(await look(tab1)).toEqual({ ...clean, url: (await look(tab1)).url });
      await ref.reset({ seed: third.info.seed });
      expect(record3).toBe(await playOut(ref, ACTIONS));
      // Seeds continue the sequence exactly as without spares.
      const plain = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 12, spares: 0 }, browser);
      try {
        const seeds = [];
        for (let i = 0; i < 3; i++) {
          seeds.push((await plain.reset()).info.seed);
          await playOut(plain, ACTIONS);
        }
        expect(seeds).toEqual([first.info.seed, second.info.seed, third.info.seed]);
      } finally {
        await plain.close();
      }
    } finally {
      await env.close();
      await ref.close();
    }
  });

  it('gives byte-identical records to a fresh page for a game of each renderer', async () => {
    const games = loadCatalog().games;
    const picks = ['2d', 'webgl', 'dom'].map((r) => games.find((g) => g.manifest.renderer === r)!.manifest.id);
    for (const game of picks) {
      const env = makeEnv({ game, seed: 21, observation: 'state', maxSteps: 10 }, browser);
      const ref = makeEnv({ game, seed: 21, observation: 'state', maxSteps: 10, spares: 0 }, browser);
      try {
        const n = env.actionSpace.type === 'Discrete' ? env.actionSpace.n : 1;
        const actions = Array.from({ length: 10 }, (_, i) => (i * 5 + 1) % n);
        await env.reset();
        const tab1 = env.currentPage!;
        await playOut(env, actions);
        const { info } = await env.reset();
        expect(env.currentPage, game).not.toBe(tab1);
        const swapped = await playOut(env, actions);
        await ref.reset({ seed: info.seed });
        expect(swapped, game).toBe(await playOut(ref, actions));
      } finally {
        await env.close();
        await ref.close();
      }
    }
  });

  it('leaves the spares for a reset that names them, and closes them with the env', async () => {
    const env = makeEnv({ game: 'snake', seed: 5, observation: 'state', maxSteps: 4 }, browser);
    const contexts = browser.contexts().length;
    await env.reset();
    const spares = env.spareSeeds;
    expect(spares).toHaveLength(2); // the default
    const tab1 = env.currentPage!;
    await env.reset({ seed: 99 });
    expect(env.currentPage).toBe(tab1); // the page reused, the spares kept
    expect(env.spareSeeds).toEqual(spares);
    // A reset naming a spare's seed takes that spare.
    expect((await env.reset({ seed: spares[1] })).info.seed).toBe(spares[1]);
    expect(env.currentPage).not.toBe(tab1);
    expect(env.spareSeeds).toEqual([spares[0]]);
    // That seed reseeded the sequence (as gymnasium.Env.reset(seed=…)): the next reset plays its
    // first seed, and the spares are refilled with the new sequence's next two.
    const sequence = new SeededRandom(spares[1]);
    const first = sequence.nextUint32();
    expect((await env.reset()).info.seed).toBe(first);
    const refilled = env.spareSeeds;
    expect(refilled).toEqual([sequence.nextUint32(), sequence.nextUint32()]);
    // A named next episode joins them, the oldest going past the limit.
    env.prepareNextEpisode(1234);
    expect(env.spareSeeds).toEqual([refilled[1], 1234]);
    expect((await env.reset({ seed: 1234 })).info.seed).toBe(1234);
    expect(() => env.prepareNextEpisode(-1)).toThrow(/seed must be an integer/);
    await env.close();
    await expect.poll(() => browser.contexts().length).toBe(contexts);
  });
});
