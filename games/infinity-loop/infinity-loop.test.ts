import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { expectEndsOnMove, expectedJoints, gameTests } from '../shared/testing/game-tests';
import type { InfinityLoopVerifierState as S } from '../../verifiers/infinity-loop';
import { solveRotations } from './scripted-agent';

const gym = useBrowser();
const game = gameTests(gym, 'infinity-loop');
const rot = (m: number) => ((m << 1) | (m >> 3)) & 15;

/** Matched edges of a board, as keys, computed independently of the game. */
function matchedEdges(s: S): Set<string> {
  const out = new Set<string>();
  for (let y = 0; y < s.rows; y++) {
    for (let x = 0; x < s.cols; x++) {
      const i = y * s.cols + x;
      if (x + 1 < s.cols && s.tiles[i] & 2 && s.tiles[i + 1] & 8) out.add(`${i}e`);
      if (y + 1 < s.rows && s.tiles[i] & 4 && s.tiles[i + s.cols] & 1) out.add(`${i}s`);
    }
  }
  return out;
}

/** Each cell's 10 features: openings, joints (an opening that meets the neighbour's), east and south edges matched before. */
function expectCells(v: ArrayLike<number>, s: S, before: Set<string>): void {
  for (let i = 0; i < 36; i++) {
    const cell = Array.from(v).slice(i * 10, i * 10 + 10);
    const openings = [0, 1, 2, 3].map((d) => (s.tiles[i] >> d) & 1);
    expect(cell).toEqual([...openings, ...expectedJoints(s, i), before.has(`${i}e`) ? 1 : 0, before.has(`${i}s`) ? 1 : 0]);
  }
}

describe('infinity-loop', () => {
  it('turns a tile clockwise per click, scores each newly matched edge once and 10 for the solved board', async () => {
    const { env, observation, state: s0 } = await game.start<S>(4, { observation: ['state', 'vector'] });
    let s = s0;
    expect(s.level).toBe(1);
    expect(s.score).toBe(0);
    expect(observation.vector).toHaveLength(36 * 10 + 3);
    // An empty cell (outside the level's region or a blank) costs nothing and changes nothing.
    const empty = s.tiles.indexOf(0);
    const r0 = await env.step(empty);
    expect(r0.reward).toBe(0);
    expect((r0.info.state as S).movesLeft).toBe(s.movesLeft);

    const sol = solveRotations(s.cols, s.rows, s.tiles)!;
    expect(sol).not.toBeNull();
    const ever = matchedEdges(s);
    expect(s.matchedBefore).toEqual([...ever].sort());
    expectCells(observation.vector!, s, ever);
    let total = 0;
    let solvedAt = -1;
    for (let step = 0; step < 80 && solvedAt < 0; step++) {
      const i = s.tiles.findIndex((m, k) => m !== sol[k]);
      const before = s.tiles[i];
      const r = await env.step(i);
      const next = r.info.state as S;
      total += r.reward;
      if (next.level === 2) {
        // The solving click scores its new edges plus the level bonus.
        const solvedTiles = s.tiles.slice();
        solvedTiles[i] = rot(before);
        const fresh = [...matchedEdges({ ...s, tiles: solvedTiles })].filter((k) => !ever.has(k)).length;
        expect(r.reward).toBe(fresh + 10);
        solvedAt = step;
        break;
      }
      expect(next.tiles[i]).toBe(rot(before));
      expect(next.movesLeft).toBe(s.movesLeft - 1);
      const now = matchedEdges(next);
      const fresh = [...now].filter((k) => !ever.has(k));
      expect(r.reward).toBe(fresh.length);
      fresh.forEach((k) => ever.add(k));
      expect(next.matchedEdges).toBe(now.size);
      expect(next.matchedBefore).toEqual([...ever].sort());
      expectCells(r.observation.vector!, next, ever);
      s = next;
    }
    expect(solvedAt).toBeGreaterThanOrEqual(0);
    const last = await env.step(empty);
    const l2 = last.info.state as S;
    expect(l2.level).toBe(2);
    expect(l2.score).toBe(total);
    expect(l2.region.w * l2.region.h).toBeGreaterThan(16);
  });

  it('ends the game when the moves run out', async () => {
    const { env, state: s } = await game.start<S>(9, { observation: 'state', maxSteps: 400 });
    // Keep turning one corner tile: the board cycles through four unsolved states.
    const i = s.tiles.findIndex((m) => m === 3 || m === 6 || m === 12 || m === 9);
    const last = await expectEndsOnMove(env, s.moveLimit, () => i);
    expect(last.info.state as S).toMatchObject({ movesLeft: 0, level: 1 });
    expect(last.info.episode?.totals.terminated).toBe(true);
  });

  game.framesChange<S>('renders a real frame that changes when a tile turns', {
    seed: 2,
    before: (s) => [s.tiles.indexOf(0)],
    change: (s) => s.tiles.findIndex((m) => m !== 0 && m !== 15),
    distinct: 8,
    std: 5,
  });

  game.beatsRandom('the scripted solver beats a random clicker', { seeds: [3], maxSteps: 60, atLeast: 40, above: (r) => r + 25 });
});
