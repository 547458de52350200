/**
 * 2048 move afterstates on a real page: for every move taken, the features the observation
 * predicted equal what the game did (the points the move scored, whether the board changed, the
 * empty cells left before the new tile spawned), and one-key decisions record exactly the keys.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import type { G2048VerifierState } from '../../verifiers/g2048';
import { SeededRandom } from '../../gym/random';
import { afterstateEnv, featureReader, playDecisions } from '../shared/testing/afterstates';
import { SLIDE_FEATURES, SLIDE_SCALE } from './afterstates';

const gym = useBrowser();
const feature = featureReader(SLIDE_FEATURES, SLIDE_SCALE);
const emptyOf = (b: number[][]) => b.flat().filter((v) => v === 0).length;

describe('2048 move afterstates', () => {
  it('predict the points, the change and the free cells of every move', async () => {
    const run = await afterstateEnv(gym, 'g2048', 'preset', { seed: 4, maxSteps: 100, features: SLIDE_FEATURES });
    expect(run.planner.numDecisions).toBe(4);
    const rng = new SeededRandom(9);
    let moved = 0;
    let still = 0;
    let gained = 0;
    await playDecisions<G2048VerifierState>(run, {
      seed: 4,
      decisions: 150,
      choose: () => Math.floor(rng.next() * 4),
      check: ({ i, d, obs, before: s, after, step }) => {
        expect(step.info.macro.actions).toEqual([d]);
        const changed = JSON.stringify(after.board) !== JSON.stringify(s.board);
        const label = `move ${i} (${run.planner.names[d]})`;
        expect(feature(obs, d, 'moved'), label).toBe(changed ? 1 : 0);
        expect(feature(obs, d, 'gain'), label).toBeCloseTo(after.score - s.score, 4);
        // A move that changes the board spawns one tile into the cells it left free.
        if (changed) expect(feature(obs, d, 'empty'), label).toBeCloseTo(emptyOf(after.board) + 1, 4);
        changed ? moved++ : still++;
        gained += after.score - s.score;
      },
    });
    expect(moved).toBeGreaterThan(50);
    expect(still, 'some moves changed nothing').toBeGreaterThan(0);
    expect(gained).toBeGreaterThan(0);
  });
});
