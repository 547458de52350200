/**
 * Snake key afterstates on a real page: on every step where the game ticked once, the features
 * predicted for the key pressed say what the tick did (the game ended, the snake ate, the head
 * moved closer to the food), and the space feature reads the area the new head can reach.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import type { SnakeVerifierState } from '../../verifiers/snake';
import { SeededRandom } from '../../gym/random';
import { afterstateEnv, bestDecision, featureReader, playDecisions } from '../shared/testing/afterstates';
import { SNAKE_FEATURES } from './afterstates';

const gym = useBrowser();
const feature = featureReader(SNAKE_FEATURES);
const distance = (s: SnakeVerifierState) => Math.abs(s.head[0] - s.food[0]) + Math.abs(s.head[1] - s.food[1]);

describe('Snake key afterstates', () => {
  it('predict what the next tick does for the key pressed', async () => {
    const run = await afterstateEnv(gym, 'snake', 'preset', { seed: 2, maxSteps: 100, features: SNAKE_FEATURES });
    expect(run.planner.numDecisions).toBe(5);
    const rng = new SeededRandom(5);
    const seen = { deaths: 0, meals: 0, checked: 0 };
    await playDecisions<SnakeVerifierState>(run, {
      seed: 2,
      decisions: 400,
      enough: () => seen.deaths >= 3 && seen.meals >= 3,
      // Mostly the key the features favour (so the snake lives and eats), sometimes any key (so it dies too).
      choose: (obs) => (rng.next() < 0.8 ? favoured(obs) : Math.floor(rng.next() * 5)),
      check: ({ i, d, obs, before: s, after }) => {
        if (after.ticks !== s.ticks + 1) return;
        const label = `step ${i} (${run.planner.names[d]}), heading ${s.dir}`;
        expect(feature(obs, d, 'dies'), label).toBe(after.gameOver ? 1 : 0);
        if (!after.gameOver) {
          expect(feature(obs, d, 'eats'), label).toBe(after.length > s.length ? 1 : 0);
          if (after.length === s.length) expect(feature(obs, d, 'closer'), label).toBe(distance(after) < distance(s) ? 1 : 0);
          expect(feature(obs, d, 'space'), label).toBeGreaterThan(0);
        }
        seen.checked++;
        if (after.gameOver) seen.deaths++;
        if (after.length > s.length) seen.meals++;
      },
    });
    expect(seen.deaths).toBeGreaterThanOrEqual(3);
    expect(seen.meals).toBeGreaterThanOrEqual(3);
    expect(seen.checked).toBeGreaterThan(50);
  });
});

/** A crude player: not dying, then eating, then getting closer. */
function favoured(obs: Float32Array): number {
  return bestDecision(5, (d) => -10 * feature(obs, d, 'dies') + 3 * feature(obs, d, 'eats') + feature(obs, d, 'closer') + feature(obs, d, 'space'));
}
