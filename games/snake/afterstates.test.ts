/**
 * Snake key afterstates on a real page: on every step where the game ticked once, the features
 * predicted for the key pressed say what the tick did (the game ended, the snake ate, the head
 * moved closer to the food), and the space feature reads the area the new head can reach.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { getGame } from '../../gym/catalog';
import { DecisionObservation, MacroAction } from '../../gym/core';
import type { SnakeVerifierState } from '../../verifiers/snake';
import type { Observation } from '../../gym';
import { SeededRandom } from '../../gym/random';
import { macroPlannerFor } from '../../gym/actions';
import { SNAKE_FEATURES, type SnakeFeature } from './afterstates';

const gym = useBrowser();
const manifest = getGame('snake').manifest;
const planner = (await macroPlannerFor({ kind: 'preset', observation: 'afterstates' }, getGame(manifest.id)))!;
const F = SNAKE_FEATURES.length;
const feature = (obs: Float32Array, d: number, f: SnakeFeature) => obs[d * F + SNAKE_FEATURES.indexOf(f)];
const distance = (s: SnakeVerifierState) => Math.abs(s.head[0] - s.food[0]) + Math.abs(s.head[1] - s.food[1]);

describe('Snake key afterstates', () => {
  it('predict what the next tick does for the key pressed', async () => {
    const env = new DecisionObservation(new MacroAction(await gym.env({ game: 'snake', seed: 2, observation: 'state', maxSteps: 100 }), planner), planner);
    expect(env.observationSpace).toMatchObject({ type: 'Dict', spaces: { vector: { type: 'Box', shape: [5, F] } } });
    const rng = new SeededRandom(5);
    let r: { observation: Observation; info: { state?: unknown } } = await env.reset({ seed: 2 });
    const seen = { deaths: 0, meals: 0, checked: 0 };
    let seed = 2;
    for (let i = 0; i < 400 && (seen.deaths < 3 || seen.meals < 3); i++) {
      const s = r.info.state as SnakeVerifierState;
      const obs = r.observation.vector as Float32Array;
      // Mostly the key the features favour (so the snake lives and eats), sometimes any key (so it dies too).
      const d = rng.next() < 0.8 ? favoured(obs) : Math.floor(rng.next() * 5);
      const step = await env.step(d);
      const after = step.info.state as SnakeVerifierState;
      if (after.ticks === s.ticks + 1) {
        const label = `step ${i} (${planner.names[d]}), heading ${s.dir}`;
        expect(feature(obs, d, 'dies'), label).toBe(after.gameOver ? 1 : 0);
        if (!after.gameOver) {
          expect(feature(obs, d, 'eats'), label).toBe(after.length > s.length ? 1 : 0);
          if (after.length === s.length) expect(feature(obs, d, 'closer'), label).toBe(distance(after) < distance(s) ? 1 : 0);
          expect(feature(obs, d, 'space'), label).toBeGreaterThan(0);
        }
        seen.checked++;
        if (after.gameOver) seen.deaths++;
        if (after.length > s.length) seen.meals++;
      }
      r = step.terminated || step.truncated ? await env.reset({ seed: ++seed }) : step;
    }
    expect(seen.deaths).toBeGreaterThanOrEqual(3);
    expect(seen.meals).toBeGreaterThanOrEqual(3);
    expect(seen.checked).toBeGreaterThan(50);
  });
});

/** A crude player: not dying, then eating, then getting closer. */
function favoured(obs: Float32Array): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let d = 0; d < 5; d++) {
    const score = -10 * feature(obs, d, 'dies') + 3 * feature(obs, d, 'eats') + feature(obs, d, 'closer') + feature(obs, d, 'space');
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}
