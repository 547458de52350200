/**
 * Path of Light key afterstates on a real page: on every step, the features predicted for the key
 * pressed say what the game did (the orb stayed against a wall, lit a new cell, reached the exit,
 * got closer to it), and a key the features call stranding really leaves the exit out of reach.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import type { PathOfLightVerifierState } from '../../verifiers/path-of-light';
import { SeededRandom } from '../../gym/random';
import { afterstateEnv, bestDecision, featureReader, playDecisions } from '../shared/testing/afterstates';
import { MAZE_FEATURES } from './afterstates';

const gym = useBrowser();
const feature = featureReader(MAZE_FEATURES);

describe('Path of Light key afterstates', () => {
  it('predict what each key pressed does', async () => {
    const run = await afterstateEnv(gym, 'path-of-light', 'preset', { seed: 4, maxSteps: 100, features: MAZE_FEATURES });
    expect(run.planner.numDecisions).toBe(4);
    const rng = new SeededRandom(9);
    const seen = { bumps: 0, lit: 0, exits: 0, closer: 0, checked: 0 };
    await playDecisions<PathOfLightVerifierState>(run, {
      seed: 4,
      decisions: 600,
      enough: () => seen.exits >= 2 && seen.bumps >= 5,
      // Mostly toward the exit (so levels are solved), sometimes any key (bumps, detours, running out).
      choose: (obs) => (rng.next() < 0.75 ? favoured(obs) : Math.floor(rng.next() * 4)),
      check: ({ i, d, obs, before: s, after }) => {
        const label = `step ${i} (${run.planner.names[d]}) at ${s.player} level ${s.level}`;
        const exited = after.exitsReached > s.exitsReached;
        const stayed = !exited && after.player[0] === s.player[0] && after.player[1] === s.player[1];
        expect(feature(obs, d, 'blocked'), label).toBe(stayed ? 1 : 0);
        expect(feature(obs, d, 'exits'), label).toBe(exited ? 1 : 0);
        if (!exited) {
          expect(feature(obs, d, 'lights'), label).toBe(after.litCount > s.litCount ? 1 : 0);
          if (feature(obs, d, 'stranded') === 1) expect(after.energy < pathLength(after), label).toBe(true);
        }
        seen.checked++;
        if (stayed) seen.bumps++;
        if (exited) seen.exits++;
        if (feature(obs, d, 'lights')) seen.lit++;
        if (feature(obs, d, 'closer')) seen.closer++;
      },
    });
    expect(seen.exits).toBeGreaterThanOrEqual(2);
    expect(seen.bumps).toBeGreaterThanOrEqual(5);
    expect(seen.lit).toBeGreaterThan(20);
    expect(seen.closer).toBeGreaterThan(20);
  });
});

/** A crude player: toward the exit, never into a wall. */
function favoured(obs: Float32Array): number {
  return bestDecision(4, (d) => 5 * feature(obs, d, 'exits') - 3 * feature(obs, d, 'blocked') + 2 * feature(obs, d, 'closer') + feature(obs, d, 'lights'));
}

/** The shortest path from the orb to the exit, by breadth-first search through the state's open sides. */
function pathLength(s: PathOfLightVerifierState): number {
  const { n, open } = s;
  const dist = new Map([[s.player[1] * n + s.player[0], 0]]);
  const queue = [...dist.keys()];
  const step = [-n, 1, n, -1];
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q];
    for (let b = 0; b < 4; b++) {
      const j = i + step[b];
      if (open[i] & (1 << b) && !dist.has(j)) {
        dist.set(j, dist.get(i)! + 1);
        queue.push(j);
      }
    }
  }
  return dist.get(s.exit[1] * n + s.exit[0]) ?? Infinity;
}
