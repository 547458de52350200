/**
 * Platformer key afterstates on a real (WebGL) page: on every step, what the features predicted
 * for the key pressed is what the game did: where the player ended up, what it scored, whether it
 * lost a life, and whether it was in the air. The player's position is exact on all but a few
 * steps: there the game's frame at the step's last instant fell on the other side of the key's
 * release, or a wall stopped the player that the simulation let by (a few hundredths of the steps
 * here, by up to a fifth of a tile), and the scripted agent searches with the same simulation.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { getGame } from '../../gym/catalog';
import { DecisionObservation } from '../../gym/core';
import type { PlatformerVerifierState } from '../../verifiers/platformer';
import type { Observation } from '../../gym';
import { SeededRandom } from '../../gym/random';
import { macroPlannerFor } from '../../gym/actions';
import { PLATFORMER_FEATURES, type PlatformerFeature } from './afterstates';

const gym = useBrowser();
const manifest = getGame('platformer').manifest;
const planner = (await macroPlannerFor({ kind: 'preset', observation: 'afterstates' }, getGame(manifest.id)))!;
const F = PLATFORMER_FEATURES.length;
const feature = (obs: Float32Array, d: number, f: PlatformerFeature) => obs[d * F + PLATFORMER_FEATURES.indexOf(f)];

describe('platformer key afterstates', () => {
  it('predict what each key pressed does', async () => {
    const env = new DecisionObservation(await gym.env({ game: 'platformer', seed: 3, observation: 'state', maxSteps: 150 }), planner);
    expect(env.observationSpace).toMatchObject({ type: 'Dict', spaces: { vector: { type: 'Box', shape: [5, F] } } });
    const rng = new SeededRandom(5);
    let seed = 3;
    let r: { observation: Observation; info: { state?: unknown } } = await env.reset({ seed });
    const seen = { deaths: 0, points: 0, jumps: 0, checked: 0, inexact: 0 };
    for (let i = 0; i < 450 && (seen.deaths < 3 || seen.points < 3); i++) {
      const s = r.info.state as PlatformerVerifierState;
      const obs = r.observation.vector as Float32Array;
      // Mostly forward and alive (so the course is crossed), sometimes any key (deaths, stops, turns).
      const d = rng.next() < 0.7 ? favoured(obs) : Math.floor(rng.next() * 5);
      const step = await env.step(d);
      const after = step.info.state as PlatformerVerifierState;
      const label = `step ${i} (${planner.names[d]}) at x ${s.player.x.toFixed(3)} seed ${seed}`;
      if (!s.dying && !s.gameOver) {
        const died = after.deaths > s.deaths;
        expect(feature(obs, d, 'dies'), label).toBe(died ? 1 : 0);
        if (!died) {
          const error = Math.abs(feature(obs, d, 'advance') * 1.5 - (after.player.x - s.player.x));
          expect(error, label).toBeLessThan(0.25);
          if (error > 1e-4) seen.inexact++;
          expect(feature(obs, d, 'points') * 10, label).toBeCloseTo(after.score - s.score - (after.maxDistance - s.maxDistance), 4);
          expect(feature(obs, d, 'airborne'), label).toBe(after.player.onGround ? 0 : 1);
          if (feature(obs, d, 'airborne')) seen.jumps++;
          if (feature(obs, d, 'points') > 0) seen.points++;
        } else seen.deaths++;
        seen.checked++;
      } else {
        expect(
          Array.from(obs).every((v) => v === 0),
          `${label}: a dying player's keys do nothing`,
        ).toBe(true);
      }
      r = step.terminated || step.truncated ? await env.reset({ seed: ++seed }) : step;
    }
    expect(seen.deaths).toBeGreaterThanOrEqual(3);
    expect(seen.points).toBeGreaterThanOrEqual(3);
    expect(seen.jumps).toBeGreaterThan(20);
    expect(seen.checked).toBeGreaterThan(100);
    expect(seen.inexact / seen.checked).toBeLessThan(0.03);
  }, 240_000);
});

/** A crude player: forward, never into a lost life or a fall it cannot land from. */
function favoured(obs: Float32Array): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let d = 0; d < 5; d++) {
    const score = -10 * feature(obs, d, 'dies') - 5 * feature(obs, d, 'doomed') + feature(obs, d, 'advance') + feature(obs, d, 'points');
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}
