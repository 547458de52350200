import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { expectEndsOnMove, expectedJoints, gameTests } from '../shared/testing/game-tests';
import type { EnergyVerifierState as S } from '../../verifiers/energy';
import { solveEnergy } from './scripted-agent';

const gym = useBrowser();
const game = gameTests(gym, 'energy');
const rot = (m: number) => ((m << 1) | (m >> 3)) & 15;
const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];

/** Cells current reaches from the source, computed independently of the game. */
function power(s: Pick<S, 'cols' | 'rows' | 'tiles' | 'source'>): number[] {
  const on = new Array(s.cols * s.rows).fill(0);
  on[s.source] = 1;
  const stack = [s.source];
  while (stack.length) {
    const i = stack.pop()!;
    for (let d = 0; d < 4; d++) {
      if (!(s.tiles[i] & (1 << d))) continue;
      const x = (i % s.cols) + DX[d];
      const y = Math.floor(i / s.cols) + DY[d];
      if (x < 0 || y < 0 || x >= s.cols || y >= s.rows) continue;
      const j = y * s.cols + x;
      if (!on[j] && s.tiles[j] & (1 << ((d + 2) % 4))) {
        on[j] = 1;
        stack.push(j);
      }
    }
  }
  return on;
}

/** Each cell's 12 features: openings, joints, powered, bulb, bulb lit before, source. */
function expectCells(v: ArrayLike<number>, s: S): void {
  for (let i = 0; i < 36; i++) {
    const cell = Array.from(v).slice(i * 12, i * 12 + 12);
    const openings = [0, 1, 2, 3].map((d) => (s.tiles[i] >> d) & 1);
    const flags = [s.powered[i], s.bulbs.includes(i) ? 1 : 0, s.litBefore.includes(i) ? 1 : 0, i === s.source ? 1 : 0];
    expect(cell).toEqual([...openings, ...expectedJoints(s, i), ...flags]);
  }
}

describe('energy', () => {
  it('turns tiles, scores 5 per bulb lit the first time and 20 for a fully lit board', async () => {
    const { env, observation, state: s0 } = await game.start<S>(11, { observation: ['state', 'vector'] });
    let s = s0;
    expect(observation.vector).toHaveLength(36 * 12 + 3);
    expectCells(observation.vector!, s);
    expect(s.score).toBe(0);
    expect(s.powered).toEqual(power(s));
    expect(s.bulbs.length).toBeGreaterThanOrEqual(3);
    expect(s.litBulbs).toBeLessThan(s.bulbs.length);
    const sol = solveEnergy(s)!;
    expect(sol).not.toBeNull();
    const litEver = new Set(s.bulbs.filter((b) => s.powered[b]));
    let solved = false;
    for (let step = 0; step < 80 && !solved; step++) {
      const i = s.tiles.findIndex((m, k) => m !== sol[k]);
      const tiles = s.tiles.slice();
      tiles[i] = rot(tiles[i]);
      const on = power({ ...s, tiles });
      const fresh = s.bulbs.filter((b) => on[b] && !litEver.has(b));
      fresh.forEach((b) => litEver.add(b));
      const r = await env.step(i);
      const next = r.info.state as S;
      if (next.level === 1) {
        expect(next.litBefore).toEqual(s.bulbs.filter((b) => litEver.has(b)));
        expectCells(r.observation.vector!, next);
      }
      if (s.bulbs.every((b) => on[b])) {
        expect(r.reward).toBe(5 * fresh.length + 20);
        expect(next.level).toBe(2);
        solved = true;
      } else {
        expect(r.reward).toBe(5 * fresh.length);
        expect(next.tiles[i]).toBe(tiles[i]);
        expect(next.powered).toEqual(on);
        expect(next.movesLeft).toBe(s.movesLeft - 1);
      }
      s = next;
    }
    expect(solved).toBe(true);
    expect(s.score).toBe(5 * (litEver.size - s0.bulbs.filter((b) => s0.powered[b]).length) + 20);
  });

  it('ends the game when the moves run out', async () => {
    const { env, state: s } = await game.start<S>(12, { observation: 'state', maxSteps: 400 });
    // Keep turning one bulb that is dark now: the rest of the board never changes.
    const i = s.bulbs.find((b) => !s.powered[b])!;
    const last = await expectEndsOnMove(env, s.moveLimit, () => i);
    expect(last.info.state as S).toMatchObject({ movesLeft: 0, level: 1 });
  });

  game.framesChange<S>('renders a real frame that changes when a tile turns', {
    seed: 2,
    before: (s) => [s.tiles.indexOf(0)],
    change: (s) => s.bulbs[0],
    distinct: 8,
    std: 5,
  });

  game.beatsRandom('the scripted solver beats a random clicker', { seeds: [3], maxSteps: 60, atLeast: 80, above: (r) => r + 50 });
});
