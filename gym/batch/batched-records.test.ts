import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog';
import { BrowserPool } from '../pool/browser-pool';
import { canonicalJson } from '../schema/records';
import { useBrowser } from '../testing/harness';
import { batchedRecords, committedDigests, digest, RANDOM_SEEDS as SEEDS, RANDOM_STEPS as STEPS, randomActions, singleRecord } from '../eval/record-digests';
import { BatchedVectorEnv } from './batched-vector-env';

/**
 * The batch's promise: an instance in a shared page plays exactly as a page of its own. For
 * every game of the catalog (canvas, DOM, WebGL, third-party), episodes of random actions are
 * played batched and single-instance, and their records must be byte-identical, and hash to what
 * they hashed when the fixture was written (gym/eval/record-digests.json): a change of the
 * step path that alters any record fails here.
 */
const FIXTURE = committedDigests();

const gym = useBrowser();
const pool = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 8, healthIntervalMs: 0 });
afterAll(() => pool.close());

describe('batched instances play exactly as single-instance pages', () => {
  for (const entry of loadCatalog().games) {
    const id = entry.manifest.id;
    it(`${id} (${entry.manifest.renderer}): byte-identical episode records`, async () => {
      const actions = SEEDS.map((seed) => randomActions(seed, entry.manifest.preset.length, STEPS));
      // Twice in one page: the second round reloads the frames, their files then in the page's cache (serve-files-cdp.ts).
      const [batched, reloaded] = await batchedRecords(pool, id, actions, 2);
      expect(batched).toHaveLength(SEEDS.length);
      for (const [i, seed] of SEEDS.entries()) {
        const single = await singleRecord(await gym.browser(), id, seed, actions[i]);
        expect(batched[i].seed).toBe(seed);
        expect(canonicalJson(batched[i])).toBe(canonicalJson(single));
        expect(canonicalJson(reloaded[i])).toBe(canonicalJson(single));
        expect(
          { game: id, version: entry.manifest.version, digest: digest(single) },
          'a changed record: bump the game version and run npm run record-digests -- --write',
        ).toEqual({
          game: id,
          version: FIXTURE[id]?.version,
          digest: FIXTURE[id]?.random[i],
        });
      }
    }, 120_000);
  }
});

describe('instance frames', () => {
  it("every frame runs the init script with its own seed, in the game's viewport", async () => {
    const v = new BatchedVectorEnv({ game: 'snake', numEnvs: 3, seed: 40, observation: 'state', instancesPerPage: 3, pool });
    try {
      await v.reset();
      const frames = await v.pageOf(0)!.evaluateInHost(() =>
        Array.from(document.querySelectorAll('iframe'), (f) => {
          const w = f.contentWindow as Window & { __arcade?: { seed: number } };
          return { seed: w.__arcade?.seed, width: w.innerWidth, height: w.innerHeight, dpr: w.devicePixelRatio };
        }),
      );
      expect(frames).toEqual([40, 41, 42].map((seed) => ({ seed, width: 400, height: 400, dpr: 1 })));
      // The host itself runs no game runtime: its clock is the real one.
      expect(await v.pageOf(0)!.evaluateInHost(() => typeof (globalThis as { __arcade?: unknown }).__arcade)).toBe('undefined');
    } finally {
      await v.close();
    }
  }, 60_000);

  for (const game of ['snake', 'hex-frvr']) {
    it(`${game}: 84×84 pixel observations are the single-instance page's`, async () => {
      const v = new BatchedVectorEnv({ game, numEnvs: 2, seed: 8, observation: ['state', 'pixels'], instancesPerPage: 2, pool });
      const single = await gym.env({ game, seed: 9, observation: ['state', 'pixels'] });
      try {
        const b = await v.reset();
        const s = await single.reset({ seed: 9 });
        expect(Buffer.from(b.observations[1].pixels!.data).equals(Buffer.from(s.observation.pixels!.data))).toBe(true);
        for (let t = 0; t < 8; t++) {
          const br = await v.step([t % 4, t % 4]);
          const sr = await single.step(t % 4);
          expect(Buffer.from(br.observations[1].pixels!.data).equals(Buffer.from(sr.observation.pixels!.data))).toBe(true);
        }
      } finally {
        await v.close();
        await single.close();
      }
    }, 60_000);
  }
});

describe('page layout', () => {
  it('gives every env a page when the game measures best at one instance per page, more envs than one browser holds', async () => {
    // Its own pool, as makeVectorEnv's: 9 envs at one per page are more pages than a browser of 8 holds.
    const v = new BatchedVectorEnv({ game: 'g2048', numEnvs: 9, seed: 5, observation: 'state', instancesPerPage: 1, poolOptions: { healthIntervalMs: 0 } });
    try {
      const r = await v.reset();
      expect(r.infos.filter((i) => 'resetFailure' in i)).toEqual([]);
      expect(v.instancesPerPage).toBe(1);
      const s = await v.step(Array(9).fill(0));
      expect(s.infos.filter((i) => 'resetFailure' in i)).toEqual([]);
    } finally {
      await v.close();
    }
  }, 120_000);

  it('puts more instances on a page than asked when a shared pool cannot hold a page per env', async () => {
    const small = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 3, healthIntervalMs: 0 });
    const v = new BatchedVectorEnv({ game: 'g2048', numEnvs: 7, seed: 5, observation: 'state', instancesPerPage: 1, pool: small });
    try {
      const r = await v.reset();
      expect(r.infos.filter((i) => 'resetFailure' in i)).toEqual([]);
      expect(v.instancesPerPage).toBe(3);
      expect(new Set(Array.from({ length: 7 }, (_, i) => v.pageOf(i))).size).toBe(3);
    } finally {
      await v.close();
      await small.close();
    }
  }, 120_000);
});
