/**
 * Placement afterstates on a real Tetris page: for every decision taken, the features the
 * observation predicted for it equal those of the board the game really left (heights, holes,
 * bumpiness, lines cleared), computed with the game's own rules; and the observation has one
 * row per decision, all zero at game over.
 */
import { describe, expect, it } from 'vitest';
import { boardStats } from './logic';
import { useBrowser } from '../../gym/testing';
import { getGame } from '../../gym/catalog';
import { DecisionObservation, MacroAction } from '../../gym/core';
import type { TetrisVerifierState } from '../../verifiers/tetris';
import type { Observation } from '../../gym';
import { SeededRandom } from '../../gym/random';
import { macroPlannerFor } from '../../gym/actions';
import { AFTERSTATE_FEATURES, AFTERSTATE_SCALE, type AfterstateFeature } from './afterstates';

const gym = useBrowser();
const manifest = getGame('tetris').manifest;
const planner = (await macroPlannerFor({ kind: 'placement', observation: 'afterstates' }, getGame(manifest.id)))!;
const F = AFTERSTATE_FEATURES.length;
const at = (name: AfterstateFeature) => AFTERSTATE_FEATURES.indexOf(name);

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
    const env = new DecisionObservation(new MacroAction(await gym.env({ game: 'tetris', seed: 3, observation: 'state', maxSteps: 300 }), planner), planner);
    expect(env.observationSpace).toMatchObject({ type: 'Dict', spaces: { vector: { type: 'Box', shape: [40, F] } } });
    const rng = new SeededRandom(17);
    let seed = 3;
    let r: { observation: Observation; info: { state?: unknown } } = await env.reset({ seed });
    let s = r.info.state as TetrisVerifierState;
    let checked = 0;
    let cleared = 0;
    while (checked < 60) {
      const obs = r.observation.vector as Float32Array;
      expect(obs.length).toBe(40 * F);
      // Mostly flat placements (low rows first) so lines get cleared too, some random ones.
      const d = rng.next() < 0.7 ? bestFlat(obs) : Math.floor(rng.next() * 40);
      const step = await env.step(d);
      const after = step.info.state as TetrisVerifierState;
      if (!after.gameOver && after.pieces === s.pieces + 1) {
        const want = actual(s, after);
        for (const [name, v] of Object.entries(want)) {
          expect(obs[d * F + at(name as AfterstateFeature)], `decision ${planner.names[d]} with ${s.piece.type}, ${name}`).toBeCloseTo(v, 5);
        }
        cleared += after.lines - s.lines;
        checked++;
      }
      if (step.terminated || step.truncated || after.gameOver) {
        if (after.gameOver) expect(Array.from(step.observation.vector as Float32Array).every((v) => v === 0)).toBe(true);
        r = await env.reset({ seed: ++seed });
      } else r = step;
      s = r.info.state as TetrisVerifierState;
    }
    expect(cleared, 'some decisions cleared lines').toBeGreaterThan(0);
  });
});

/** The decision whose afterstate is lowest with fewest holes (a crude greedy player). */
function bestFlat(obs: Float32Array): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let d = 0; d < 40; d++) {
    const f = obs.subarray(d * F, (d + 1) * F);
    const score = f[at('lines_cleared')] - f[at('aggregate_height')] - f[at('holes')] - 0.5 * f[at('bumpiness')] - 10 * f[at('topped_out')];
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}
