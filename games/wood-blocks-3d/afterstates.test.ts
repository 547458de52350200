/**
 * Block drops on a real Wood Blocks 3D page (WebGL): every decision is carried out in one step (a
 * drag, or a wasted key when refused), and lands what the features predicted (the points scored, the lines
 * cleared, the free cells left, which other pieces still fit); a refused decision wastes one step
 * and changes nothing. At game over the observation is all zero.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import type { WoodBlocksVerifierState } from '../../verifiers/wood-blocks-3d';
import { SeededRandom } from '../../gym/random';
import { afterstateEnv, bestDecision, featureReader, playDecisions } from '../shared/testing/afterstates';
import { DROP_FEATURES, DROP_SCALE, type DropFeature } from './afterstates';

const gym = useBrowser();
const scaled = featureReader(DROP_FEATURES, DROP_SCALE);
/** A feature's count (they are all whole numbers), undoing the scale and float32's rounding. */
const raw = (obs: Float32Array, d: number, f: DropFeature) => Math.round(scaled(obs, d, f));
const free = (s: WoodBlocksVerifierState) => s.board.flat().filter((v) => v === 0).length;

describe('Wood Blocks 3D drop afterstates', () => {
  it('predict the points and board of every drop, one step each, and refused ones change nothing', async () => {
    const run = await afterstateEnv(gym, 'wood-blocks-3d', 'drop', { seed: 5, maxSteps: 400, features: DROP_FEATURES });
    const D = run.planner.numDecisions;
    expect(D).toBe(192);
    const rng = new SeededRandom(21);
    const seen = { drops: 0, refused: 0, lines: 0, blocked: 0, overs: 0 };
    await playDecisions<WoodBlocksVerifierState>(run, {
      seed: 5,
      decisions: 300,
      enough: () => seen.drops >= 40 && seen.lines >= 3 && seen.overs >= 1,
      // Mostly the drop that scores most (so lines clear), sometimes any allowed one, now and then a refused one.
      choose: (obs, _, i) => {
        const allowed = [...Array(D).keys()].filter((d) => raw(obs, d, 'allowed') === 1);
        expect(allowed.length, `step ${i}`).toBeGreaterThan(0);
        const u = rng.next();
        return u < 0.08 ? Math.floor(rng.next() * D) : u < 0.4 ? allowed[Math.floor(rng.next() * allowed.length)] : favoured(obs, allowed);
      },
      check: ({ i, seed, d, obs, before: s, after, step }) => {
        const label = `step ${i} (${run.planner.names[d]}), seed ${seed}`;
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
          expect(after, label).toMatchObject({ score: s.score, moves: s.moves, board: s.board, selected: s.selected, cursor: s.cursor });
          seen.refused++;
        }
        if (after.gameOver) {
          seen.overs++;
          expect((step.observation.vector as Float32Array).every((v) => v === 0)).toBe(true);
        }
      },
    });
    expect(seen.drops).toBeGreaterThanOrEqual(40);
    expect(seen.refused).toBeGreaterThanOrEqual(2);
    expect(seen.lines).toBeGreaterThanOrEqual(3);
    expect(seen.overs).toBeGreaterThanOrEqual(1);
  });
});

/** Points, with a nudge toward keeping the other pieces placeable. */
function favoured(obs: Float32Array, allowed: number[]): number {
  return bestDecision(allowed, (d) => raw(obs, d, 'points') - 3 * raw(obs, d, 'pieces_blocked') - raw(obs, d, 'holes'));
}
