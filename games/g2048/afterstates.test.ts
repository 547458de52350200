/**
 * 2048 move afterstates on a real page: for every move taken, the features the observation
 * predicted equal what the game did (the points the move scored, whether the board changed, the
 * empty cells left before the new tile spawned), and one-key decisions record exactly the keys.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { getGame } from '../../gym/catalog';
import { DecisionObservation, MacroAction } from '../../gym/core';
import type { G2048VerifierState } from '../../verifiers/g2048';
import type { Observation } from '../../gym';
import { SeededRandom } from '../../gym/random';
import { macroPlannerFor } from '../../gym/actions';
import { SLIDE_FEATURES, SLIDE_SCALE, type SlideFeature } from './afterstates';

const gym = useBrowser();
const manifest = getGame('g2048').manifest;
const planner = (await macroPlannerFor({ kind: 'preset', observation: 'afterstates' }, getGame(manifest.id)))!;
const F = SLIDE_FEATURES.length;
const feature = (obs: Float32Array, d: number, f: SlideFeature) => obs[d * F + SLIDE_FEATURES.indexOf(f)] * SLIDE_SCALE[f];
const emptyOf = (b: number[][]) => b.flat().filter((v) => v === 0).length;

describe('2048 move afterstates', () => {
  it('predict the points, the change and the free cells of every move', async () => {
    const env = new DecisionObservation(new MacroAction(await gym.env({ game: 'g2048', seed: 4, observation: 'state', maxSteps: 100 }), planner), planner);
    expect(env.observationSpace).toMatchObject({ type: 'Dict', spaces: { vector: { type: 'Box', shape: [4, F] } } });
    const rng = new SeededRandom(9);
    let r: { observation: Observation; info: { state?: unknown } } = await env.reset({ seed: 4 });
    let moved = 0;
    let still = 0;
    let gained = 0;
    for (let i = 0; i < 150; i++) {
      const s = r.info.state as G2048VerifierState;
      const obs = r.observation.vector as Float32Array;
      const d = Math.floor(rng.next() * 4);
      const step = await env.step(d);
      const after = step.info.state as G2048VerifierState;
      expect(step.info.macro.actions).toEqual([d]);
      const changed = JSON.stringify(after.board) !== JSON.stringify(s.board);
      const label = `move ${i} (${planner.names[d]})`;
      expect(feature(obs, d, 'moved'), label).toBe(changed ? 1 : 0);
      expect(feature(obs, d, 'gain'), label).toBeCloseTo(after.score - s.score, 4);
      // A move that changes the board spawns one tile into the cells it left free.
      if (changed) expect(feature(obs, d, 'empty'), label).toBeCloseTo(emptyOf(after.board) + 1, 4);
      changed ? moved++ : still++;
      gained += after.score - s.score;
      r = step.terminated || step.truncated ? await env.reset({ seed: 4 + i }) : step;
    }
    expect(moved).toBeGreaterThan(50);
    expect(still, 'some moves changed nothing').toBeGreaterThan(0);
    expect(gained).toBeGreaterThan(0);
  });
});
