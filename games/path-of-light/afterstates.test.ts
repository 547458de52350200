/**
 * Path of Light key afterstates on a real page: on every step, the features predicted for the key
 * pressed say what the game did (the orb stayed against a wall, lit a new cell, reached the exit,
 * got closer to it), and a key the features call stranding really leaves the exit out of reach.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { getGame } from '../../gym/catalog';
import { DecisionObservation, MacroAction } from '../../gym/core';
import type { PathOfLightVerifierState } from '../../verifiers/path-of-light';
import type { Observation } from '../../gym';
import { SeededRandom } from '../../gym/random';
import { macroPlannerFor } from '../../gym/actions';
import { MAZE_FEATURES, type MazeFeature } from './afterstates';

const gym = useBrowser();
const manifest = getGame('path-of-light').manifest;
const planner = (await macroPlannerFor({ kind: 'preset', observation: 'afterstates' }, getGame(manifest.id)))!;
const F = MAZE_FEATURES.length;
const feature = (obs: Float32Array, d: number, f: MazeFeature) => obs[d * F + MAZE_FEATURES.indexOf(f)];

describe('Path of Light key afterstates', () => {
  it('predict what each key pressed does', async () => {
    const env = new DecisionObservation(
      new MacroAction(await gym.env({ game: 'path-of-light', seed: 4, observation: 'state', maxSteps: 100 }), planner),
      planner,
    );
    expect(env.observationSpace).toMatchObject({ type: 'Dict', spaces: { vector: { type: 'Box', shape: [4, F] } } });
    const rng = new SeededRandom(9);
    let seed = 4;
    let r: { observation: Observation; info: { state?: unknown } } = await env.reset({ seed });
    const seen = { bumps: 0, lit: 0, exits: 0, closer: 0, checked: 0 };
    for (let i = 0; i < 600 && (seen.exits < 2 || seen.bumps < 5); i++) {
      const s = r.info.state as PathOfLightVerifierState;
      const obs = r.observation.vector as Float32Array;
      // Mostly toward the exit (so levels are solved), sometimes any key (bumps, detours, running out).
      const d = rng.next() < 0.75 ? favoured(obs) : Math.floor(rng.next() * 4);
      const step = await env.step(d);
      const after = step.info.state as PathOfLightVerifierState;
      const label = `step ${i} (${planner.names[d]}) at ${s.player} level ${s.level}`;
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
      r = step.terminated || step.truncated ? await env.reset({ seed: ++seed }) : step;
    }
    expect(seen.exits).toBeGreaterThanOrEqual(2);
    expect(seen.bumps).toBeGreaterThanOrEqual(5);
    expect(seen.lit).toBeGreaterThan(20);
    expect(seen.closer).toBeGreaterThan(20);
  });
});

/** A crude player: toward the exit, never into a wall. */
function favoured(obs: Float32Array): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let d = 0; d < 4; d++) {
    const score = 5 * feature(obs, d, 'exits') - 3 * feature(obs, d, 'blocked') + 2 * feature(obs, d, 'closer') + feature(obs, d, 'lights');
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
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
