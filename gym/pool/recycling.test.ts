import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../schema/records';
import { BrowserPool } from './browser-pool';
import { PooledEnv } from './pooled-env';
import { isAlive } from './processes';

const pools: BrowserPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

const ACTIONS = [1, 2, 2, 3, 0, 1];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Plays `seed` through ACTIONS; the canonical record of the episode. */
async function play(env: PooledEnv, seed: number): Promise<string> {
  await env.reset({ seed });
  let r;
  for (const a of ACTIONS) {
    r = await env.step(a);
    if (r.terminated || r.truncated) break;
  }
  return canonicalJson(r!.info.episode);
}

describe('browser recycling', () => {
  it('moves pages to a fresh browser after recycleAfterEpisodes episodes, lets running episodes finish, and closes the old one', async () => {
    const p = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 2, recycleAfterEpisodes: 3, healthIntervalMs: 0 });
    pools.push(p);
    const a = await PooledEnv.open(p, { game: 'snake', observation: 'state', maxSteps: ACTIONS.length });
    const b = await PooledEnv.open(p, { game: 'snake', observation: 'state', maxSteps: ACTIONS.length });
    const first = p.launchedPids[0];

    const recordA1 = await play(a, 1); // episode 1 of browser 1
    await b.reset({ seed: 2 }); // episode 2: b keeps it running
    await b.step(ACTIONS[0]);
    const recordA3 = await play(a, 3); // episode 3: the browser starts draining
    expect(p.stats().browsersRecycled).toBe(1);

    // b's episode goes on in the draining browser; a's next episode starts in a new one.
    const recordB2 = canonicalJson(
      await (async () => {
        let r;
        for (const x of ACTIONS.slice(1)) r = await b.step(x);
        return r!.info.episode;
      })(),
    );
    const recordA4 = await play(a, 4);
    expect(p.launchedPids).toHaveLength(2);
    expect(p.stats().browsers.map((x) => x.state)).toEqual(['draining', 'ready']);
    expect(isAlive(first)).toBe(true);

    // b's next reset moves it too, and the emptied browser is closed.
    const recordB5 = await play(b, 5);
    for (let i = 0; i < 50 && isAlive(first); i++) await sleep(100);
    expect(isAlive(first)).toBe(false);
    expect(p.stats().browsers.map((x) => x.state)).toEqual(['ready']);
    expect(p.stats().leases).toBe(2);

    // Recycling changes nothing in the episodes: the same seeds and actions in a pool that never recycles.
    const q = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 2, recycleAfterEpisodes: 0, healthIntervalMs: 0 });
    pools.push(q);
    const c = await PooledEnv.open(q, { game: 'snake', observation: 'state', maxSteps: ACTIONS.length });
    expect([await play(c, 1), await play(c, 2), await play(c, 3), await play(c, 4), await play(c, 5)]).toEqual([
      recordA1,
      recordB2,
      recordA3,
      recordA4,
      recordB5,
    ]);
    expect(q.stats().browsersRecycled).toBe(0);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it('keeps the capacity: pages waiting in a draining browser still count against it', async () => {
    const p = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 1, recycleAfterEpisodes: 1, healthIntervalMs: 0 });
    pools.push(p);
    const a = await PooledEnv.open(p, { game: 'snake', observation: 'state', maxSteps: 3 });
    await a.reset({ seed: 1 });
    expect(p.stats().browsers.map((x) => x.state)).toEqual(['draining']);
    await expect(p.lease()).rejects.toMatchObject({ code: 'BUSY' });
    await a.reset({ seed: 2 });
    expect(p.stats().browsersRecycled).toBe(2);
    await a.close();
    await expect(p.lease().then((s) => s.release())).resolves.toBeUndefined();
  });
});
