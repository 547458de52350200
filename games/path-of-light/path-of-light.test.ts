import { describe, expect, it } from 'vitest';
import { useBrowser, presetIndices } from '../../gym/testing';
import { gameTests } from '../shared/testing/game-tests';
import type { PathOfLightVerifierState as S } from '../../verifiers/path-of-light';

const [UP, RIGHT, DOWN, LEFT] = presetIndices('path-of-light', ['up', 'right', 'down', 'left']);
const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];
const DIRS = [UP, RIGHT, DOWN, LEFT];
const gym = useBrowser();
const game = gameTests(gym, 'path-of-light');
/** Whether the player's cell has an open passage in direction `d`. */
const exits = (s: S, d: number) => (s.open[s.player[1] * s.n + s.player[0]] & (1 << d)) !== 0;

/** Shortest route (as preset directions) from the orb to the exit, by the test's own BFS. */
function route(s: S): number[] {
  const { n, open } = s;
  const start = s.player[1] * n + s.player[0];
  const goal = s.exit[1] * n + s.exit[0];
  const prev = new Map<number, [number, number]>([[start, [-1, -1]]]);
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q];
    for (let d = 0; d < 4; d++) {
      if (!(open[i] & (1 << d))) continue;
      const j = (Math.floor(i / n) + DY[d]) * n + (i % n) + DX[d];
      if (!prev.has(j)) {
        prev.set(j, [i, d]);
        queue.push(j);
      }
    }
  }
  const dirs: number[] = [];
  for (let i = goal; i !== start; i = prev.get(i)![0]) dirs.unshift(prev.get(i)![1]);
  return dirs;
}

describe('path-of-light', () => {
  it('lights one new cell per move, ignores walls, and pays 10 + energy left at the exit', async () => {
    const { env, observation, state: s } = await game.start<S>(21, { observation: ['state', 'vector'] });
    expect(observation.vector).toHaveLength(15);
    expect(s.n).toBe(5);
    expect(s.litCount).toBe(1);
    // A move into a wall does nothing and costs nothing.
    const here = s.open[s.player[1] * s.n + s.player[0]];
    const blocked = [UP, RIGHT, DOWN, LEFT].find((d) => !(here & (1 << d)))!;
    const bump = await env.step(blocked);
    expect(bump.reward).toBe(0);
    expect((bump.info.state as S).player).toEqual(s.player);
    expect((bump.info.state as S).energy).toBe(s.energy);
    const path = route(s);
    expect(path.length).toBeLessThan(s.energy);
    let last;
    for (let k = 0; k < path.length; k++) {
      last = await env.step(path[k]);
      if (k < path.length - 1) {
        expect(last.reward).toBe(1);
        expect((last.info.state as S).energy).toBe(s.energy - k - 1);
      }
    }
    const energyLeft = s.energy - path.length;
    expect(last!.reward).toBe(1 + 10 + energyLeft);
    const next = last!.info.state as S;
    expect(next.level).toBe(2);
    expect(next.n).toBe(6);
    expect(next.score).toBe(path.length + 10 + energyLeft);
    expect(next.exitsReached).toBe(1);
  });

  it('runs out of energy pacing back and forth: no score for lit cells, then game over', async () => {
    const { env, state: s } = await game.start<S>(22, { observation: 'state', maxSteps: 300 });
    const here = s.open[s.player[1] * s.n + s.player[0]];
    const out = [UP, RIGHT, DOWN, LEFT].find((d) => here & (1 << d))!;
    const back = (out + 2) % 4;
    const rewards: number[] = [];
    let last;
    for (let k = 0; k < s.energy; k++) {
      last = await env.step(k % 2 === 0 ? out : back);
      rewards.push(last.reward);
      expect(last.terminated).toBe(k === s.energy - 1);
    }
    expect(rewards[0]).toBe(1);
    expect(rewards.slice(1).every((r) => r === 0)).toBe(true);
    expect((last!.info.state as S).gameOver).toBe(true);
  });

  game.framesChange<S>('renders a real frame that changes when the orb moves', {
    seed: 2,
    before: (s) => [DIRS.find((d) => !exits(s, d))!],
    change: (s) => DIRS.find((d) => exits(s, d))!,
    distinct: 8,
    std: 5,
  });

  game.beatsRandom('the scripted agent beats a random walk', { seeds: [3], maxSteps: 60, atLeast: 50, above: (r) => r + 30 });
});
