/**
 * The game contract, once for every game in the catalog (ours and the registered third-party
 * ones): checkGame runs gym/core's env checker on it (spaces, result shapes, determinism and
 * reset isolation), checks its verifier state and pixels, and compares the episode records of
 * two envs given the same seed and actions byte for byte. Each game's own test file keeps only
 * what is particular to that game.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog';
import { useBrowser } from '../testing/harness';
import { checkEnv, formatCheckReport } from './check-env';
import { checkGame } from './check-game';
import type { Env } from './env';
import { boxSpace, discreteSpace } from './spaces';

const gym = useBrowser();

describe('checkGame over the catalog', { timeout: 120_000 }, () => {
  for (const game of loadCatalog().games) {
    it(`${game.manifest.id} meets the game contract`, async () => {
      const report = await checkGame(game.manifest.id, { browser: await gym.browser() });
      expect(report.ok, formatCheckReport(report)).toBe(true);
      expect(report.results.map((r) => r.name)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^determinism/), expect.stringMatching(/^byte-identical/)]),
      );
    });
  }
});

describe('checkEnv finds broken envs', () => {
  /** A counter env; `flaw` breaks one part of the contract. */
  function counter(flaw: 'none' | 'leaky' | 'random' | 'space'): Env<Float32Array, number> {
    let t = 0;
    let carried = 0;
    return {
      observationSpace: boxSpace([1], 'float32', 0, 100),
      actionSpace: discreteSpace(2),
      reset(o = {}) {
        t = flaw === 'leaky' ? carried : (o.seed ?? 0) % 10;
        return { observation: Float32Array.of(t), info: {} };
      },
      step(a) {
        t += a + (flaw === 'random' ? Math.random() : 0);
        carried = t;
        return { observation: Float32Array.of(flaw === 'space' ? -t : t), reward: a, terminated: false, truncated: t > 30, info: {} };
      },
      close() {},
    };
  }

  it('passes a correct env', async () => {
    const report = await checkEnv(counter('none'));
    expect(report.ok, formatCheckReport(report)).toBe(true);
  });

  it.each([
    ['leaky', /determinism/],
    ['random', /determinism/],
    ['space', /honour the spaces/],
  ] as const)('fails an env that is %s', async (flaw, check) => {
    const report = await checkEnv(counter(flaw));
    expect(report.ok).toBe(false);
    expect(report.results.find((r) => r.status === 'fail')?.name).toMatch(check);
  });
});
