/**
 * Every game whose verifier gives an action mask, on real pages: the mask has one 0/1 entry per
 * preset action, is never without an allowed action while the game runs, rules out only actions
 * the game ignores (a masked action leaves the verifier state exactly as a wait does), and
 * allows actions that do something (at least 90 % of the allowed actions tried changed the state).
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog';
import { SeededRandom } from '../random/seeded-random';
import { probeActionMask, useBrowser } from '../testing';

const gym = useBrowser();
const masked = loadCatalog().games.filter((g) => g.actionMask);

describe('action masks match what the games accept', () => {
  it('at least the games with many no-op actions have one', () => {
    const ids = masked.map((g) => g.manifest.id);
    const withMask = [
      'g2048',
      'path-of-light',
      'match3',
      'energy',
      'infinity-loop',
      'laser-maze',
      'tiles-master',
      'gem-11',
      'merge-double',
      'emoji-sort',
      'free-the-key',
      'yarn-untangle',
      'shapes',
      'sokoban',
      'tetris',
      'hex-frvr',
      'wood-blocks-3d',
    ];
    for (const id of withMask) expect(ids, `${id} has no action mask`).toContain(id);
  });

  it.each(masked.map((g) => g.manifest.id))('%s', { timeout: 240_000 }, async (id) => {
    const opts = { game: id, observation: ['state' as const], record: false, spares: 0 };
    const [a, b] = await Promise.all([gym.env(opts), gym.env(opts)]);
    const rng = new SeededRandom(11);
    const probe = await probeActionMask(a, b, { seed: 5, steps: 120, random: () => rng.next() });
    expect(probe.malformed).toEqual([]);
    expect(probe.maskedChanged, 'masked actions that changed the game').toEqual([]);
    expect(probe.maskedTried, 'masked actions tried').toBeGreaterThan(5);
    expect(
      probe.allowedChanged / probe.allowedTried,
      `allowed actions that changed the game (${probe.allowedChanged} of ${probe.allowedTried})`,
    ).toBeGreaterThanOrEqual(0.9);
  });
});
