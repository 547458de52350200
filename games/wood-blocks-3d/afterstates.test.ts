/**
 * Block drops on a real Wood Blocks 3D page (WebGL): every decision is carried out in one step (a
 * drag, or a wasted key when refused), and lands what the features predicted (the points scored, the lines
 * cleared, the free cells left, which other pieces still fit); a refused decision wastes one step
 * and changes nothing. At game over the observation is all zero.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { getGame } from '../../gym/catalog';
import { DecisionObservation, MacroAction } from '../../gym/core';
import type { WoodBlocksVerifierState } from '../../verifiers/wood-blocks-3d';
import type { Observation } from '../../gym';
import { SeededRandom } from '../../gym/random';
import { macroPlannerFor } from '../../gym/actions';
import { DROP_FEATURES, DROP_SCALE, type DropFeature } from './afterstates';

const gym = useBrowser();
const manifest = getGame('wood-blocks-3d').manifest;
const planner = (await macroPlannerFor({ kind: 'drop', observation: 'afterstates' }, getGame(manifest.id)))!;
const F = DROP_FEATURES.length;
const D = planner.numDecisions;
/** A feature's count (they are all whole numbers), undoing the scale and float32's rounding. */
const raw = (obs: Float32Array, d: number, f: DropFeature) => Math.round(obs[d * F + DROP_FEATURES.indexOf(f)] * DROP_SCALE[f]);
const free = (s: WoodBlocksVerifierState) => s.board.flat().filter((v) => v === 0).length;

describe('Wood Blocks 3D drop afterstates', () => {
  it('predict the points and board of every drop, one step each, and refused ones change nothing', async () => {
    const env = new DecisionObservation(
      new MacroAction(await gym.env({ game: 'wood-blocks-3d', seed: 5, observation: 'state', maxSteps: 400 }), planner),
      planner,
    );
    expect(env.observationSpace).toMatchObject({ type: 'Dict', spaces: { vector: { type: 'Box', shape: [192, F] } } });
    const rng = new SeededRandom(21);
    let seed = 5;
    let r: { observation: Observation; info: { state?: unknown } } = await env.reset({ seed });
    const seen = { drops: 0, refused: 0, lines: 0, blocked: 0, overs: 0 };
    for (let i = 0; i < 300 && (seen.drops < 40 || seen.lines < 3 || seen.overs < 1); i++) {
      const s = r.info.state as WoodBlocksVerifierState;
      const obs = r.observation.vector as Float32Array;
      const allowed = [...Array(D).keys()].filter((d) => raw(obs, d, 'allowed') === 1);
      expect(allowed.length, `step ${i}`).toBeGreaterThan(0);
      // Mostly the drop that scores most (so lines clear), sometimes any allowed one, now and then a refused one.
      const u = rng.next();
      const d = u < 0.08 ? Math.floor(rng.next() * D) : u < 0.4 ? allowed[Math.floor(rng.next() * allowed.length)] : favoured(obs, allowed);
      const step = await env.step(d);
      const after = step.info.state as WoodBlocksVerifierState;
      const label = `step ${i} (${planner.names[d]}), seed ${seed}`;
      expect(step.info.macro.steps, label).toBe(1);
      if (raw(obs, d, 'allowed') === 1) {
        expect(after.moves, label).toBe(s.moves + 1);
        expect(after.score - s.score, label).toBe(raw(obs, d, 'points'));
        expect(after.lines - s.lines, label).toBe(raw(obs, d, 'lines_cleared'));
        if (raw(obs, d, 'new_set') === 0) {
          expect(free(after), label).toBe(raw(obs, d, 'free_cells'));
          expect(after.pieces.filter((p) => p && !p.fits).length, label).toBe(raw(obs, d, 'pieces_blocked'));
          expect(after.gameOver, label).toBe(raw(obs, d, 'ends_game') === 1);
        }
        seen.drops++;
        seen.lines += after.lines - s.lines;
        seen.blocked += raw(obs, d, 'pieces_blocked');
      } else {
        expect({ ...after, moves: after.moves }, label).toMatchObject({
          score: s.score,
          moves: s.moves,
          board: s.board,
          selected: s.selected,
          cursor: s.cursor,
        });
        seen.refused++;
      }
      if (after.gameOver) {
        seen.overs++;
        expect((step.observation.vector as Float32Array).every((v) => v === 0)).toBe(true);
      }
      r = step.terminated || step.truncated ? await env.reset({ seed: ++seed }) : step;
    }
    expect(seen.drops).toBeGreaterThanOrEqual(40);
    expect(seen.refused).toBeGreaterThanOrEqual(2);
    expect(seen.lines).toBeGreaterThanOrEqual(3);
    expect(seen.overs).toBeGreaterThanOrEqual(1);
  });
});

/** Points, with a nudge toward keeping the other pieces placeable. */
function favoured(obs: Float32Array, allowed: number[]): number {
  let best = allowed[0];
  let bestScore = -Infinity;
  for (const d of allowed) {
    const score = raw(obs, d, 'points') - 3 * raw(obs, d, 'pieces_blocked') - raw(obs, d, 'holes');
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}
