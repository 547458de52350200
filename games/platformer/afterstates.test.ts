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
import type { PlatformerVerifierState } from '../../verifiers/platformer';
import { SeededRandom } from '../../gym/random';
import { afterstateEnv, bestDecision, featureReader, playDecisions } from '../shared/testing/afterstates';
import { PLATFORMER_FEATURES } from './afterstates';

const gym = useBrowser();
const feature = featureReader(PLATFORMER_FEATURES);

describe('platformer key afterstates', () => {
  it('predict what each key pressed does', async () => {
    const run = await afterstateEnv(gym, 'platformer', 'preset', { seed: 3, maxSteps: 150, features: PLATFORMER_FEATURES });
    expect(run.planner.numDecisions).toBe(5);
    const rng = new SeededRandom(5);
    const seen = { deaths: 0, points: 0, jumps: 0, checked: 0, inexact: 0 };
    await playDecisions<PlatformerVerifierState>(run, {
      seed: 3,
      decisions: 450,
      enough: () => seen.deaths >= 3 && seen.points >= 3,
      // Mostly forward and alive (so the course is crossed), sometimes any key (deaths, stops, turns).
      choose: (obs) => (rng.next() < 0.7 ? favoured(obs) : Math.floor(rng.next() * 5)),
      check: ({ i, seed, d, obs, before: s, after }) => {
        const label = `step ${i} (${run.planner.names[d]}) at x ${s.player.x.toFixed(3)} seed ${seed}`;
        if (s.dying || s.gameOver) {
          expect(
            Array.from(obs).every((v) => v === 0),
            `${label}: a dying player's keys do nothing`,
          ).toBe(true);
          return;
        }
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
      },
    });
    expect(seen.deaths).toBeGreaterThanOrEqual(3);
    expect(seen.points).toBeGreaterThanOrEqual(3);
    expect(seen.jumps).toBeGreaterThan(20);
    expect(seen.checked).toBeGreaterThan(100);
    expect(seen.inexact / seen.checked).toBeLessThan(0.03);
  }, 240_000);
});

/** A crude player: forward, never into a lost life or a fall it cannot land from. */
function favoured(obs: Float32Array): number {
  return bestDecision(5, (d) => -10 * feature(obs, d, 'dies') - 5 * feature(obs, d, 'doomed') + feature(obs, d, 'advance') + feature(obs, d, 'points'));
}
