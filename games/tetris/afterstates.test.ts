/**
 * Placement afterstates on a real Tetris page: for every decision taken, the features the
 * observation predicted for it equal those of the board the game really left (heights, holes,
 * bumpiness, lines cleared), computed with the game's own rules; and the observation has one
 * row per decision, all zero at game over.
 */
import { describe, expect, it } from 'vitest';
import { boardStats } from './logic';
import { useBrowser } from '../../gym/testing';
import type { TetrisVerifierState } from '../../verifiers/tetris';
import { SeededRandom } from '../../gym/random';
import { afterstateEnv, bestDecision, featureReader, playDecisions } from '../shared/testing/afterstates';
import { AFTERSTATE_FEATURES, AFTERSTATE_SCALE, type AfterstateFeature } from './afterstates';

const gym = useBrowser();
const F = AFTERSTATE_FEATURES.length;
const feature = featureReader(AFTERSTATE_FEATURES);

/** The features (those the board alone fixes) of the board the game left, scaled as the observation scales them. */
function actual(before: TetrisVerifierState, after: TetrisVerifierState): Partial<Record<AfterstateFeature, number>> {
  const { heights, holes, bumpiness } = boardStats(after.board);
  const raw = {
    lines_cleared: after.lines - before.lines,
    aggregate_height: heights.reduce((a, b) => a + b, 0),
    holes,
    bumpiness,
    max_height: Math.max(...heights),
  };
  return Object.fromEntries(Object.entries(raw).map(([f, v]) => [f, v / AFTERSTATE_SCALE[f as AfterstateFeature]]));
}

describe('Tetris placement afterstates', () => {
  it('predict the board every decision really leaves', async () => {
    const run = await afterstateEnv(gym, 'tetris', 'placement', { seed: 3, maxSteps: 300, features: AFTERSTATE_FEATURES });
    expect(run.planner.numDecisions).toBe(40);
    const rng = new SeededRandom(17);
    let checked = 0;
    let cleared = 0;
    await playDecisions<TetrisVerifierState>(run, {
      seed: 3,
      decisions: 2_000,
      enough: () => checked >= 60,
      // Mostly flat placements (low rows first) so lines get cleared too, some random ones.
      choose: (obs) => {
        expect(obs.length).toBe(40 * F);
        return rng.next() < 0.7 ? bestFlat(obs) : Math.floor(rng.next() * 40);
      },
      check: ({ d, obs, before: s, after, step }) => {
        if (after.gameOver) expect(Array.from(step.observation.vector as Float32Array).every((v) => v === 0)).toBe(true);
        if (after.gameOver || after.pieces !== s.pieces + 1) return;
        for (const [name, v] of Object.entries(actual(s, after))) {
          expect(feature(obs, d, name as AfterstateFeature), `decision ${run.planner.names[d]} with ${s.piece.type}, ${name}`).toBeCloseTo(v, 5);
        }
        cleared += after.lines - s.lines;
        checked++;
      },
      endsEpisode: ({ after }) => after.gameOver,
    });
    expect(checked).toBe(60);
    expect(cleared, 'some decisions cleared lines').toBeGreaterThan(0);
  });
});

/** The decision whose afterstate is lowest with fewest holes (a crude greedy player). */
function bestFlat(obs: Float32Array): number {
  const f = (d: number, name: AfterstateFeature) => feature(obs, d, name);
  return bestDecision(40, (d) => f(d, 'lines_cleared') - f(d, 'aggregate_height') - f(d, 'holes') - 0.5 * f(d, 'bumpiness') - 10 * f(d, 'topped_out'));
}
