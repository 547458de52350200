import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { expectEndsOnMove, gameTests } from '../shared/testing/game-tests';
import type { LaserMazeVerifierState as S } from '../../verifiers/laser-maze';
import { planMirrors } from './scripted-agent';

const gym = useBrowser();
const game = gameTests(gym, 'laser-maze');
const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];

/** The targets the beam reaches with the given mirrors, traced by the test itself. */
function litTargets(s: S, mirrors: number[]): Set<number> {
  const hits = new Set<number>();
  let { x, y, dir: d } = s.emitter;
  for (let k = 0; k < 300; k++) {
    x += DX[d];
    y += DY[d];
    if (x < 0 || y < 0 || x >= s.cols || y >= s.rows) break;
    const i = y * s.cols + x;
    if (s.cells[i] === 1 || s.cells[i] === 4) break;
    if (s.cells[i] === 3) hits.add(i);
    // "/" turns up↔right and down↔left; "\" turns up↔left and down↔right.
    if (mirrors[i] === 1) d = [1, 0, 3, 2][d];
    else if (mirrors[i] === 2) d = [3, 2, 1, 0][d];
  }
  return hits;
}

describe('laser-maze', () => {
  it('cycles mirrors on sockets only, scores 10 per target lit the first time and 20 for a solved board', async () => {
    const { env, observation, state: s } = await game.start<S>(31, { observation: ['state', 'vector'] });
    expect(observation.vector).toHaveLength(36 * 8 + 4);
    expect(s.mirrors.every((m) => m === 0)).toBe(true);
    expect(s.hit).toEqual(s.targets.map((t) => (litTargets(s, s.mirrors).has(t) ? 1 : 0)));
    // A click on a wall or an empty cell changes nothing and costs nothing.
    const plain = s.cells.findIndex((c) => c === 0 || c === 1);
    const r0 = await env.step(plain);
    expect(r0.reward).toBe(0);
    expect((r0.info.state as S).movesLeft).toBe(s.movesLeft);

    const plan = planMirrors(s)!;
    expect(plan).not.toBeNull();
    const clicks: number[] = [];
    for (const [i, m] of [...plan.entries()].sort((a, b) => a[0] - b[0])) for (let k = 0; k < m; k++) clicks.push(i);
    const ever = litTargets(s, s.mirrors);
    const litAtStart = ever.size;
    const mirrors = s.mirrors.slice();
    for (let k = 0; k < clicks.length; k++) {
      const i = clicks[k];
      mirrors[i] = (mirrors[i] + 1) % 3;
      const lit = litTargets(s, mirrors);
      const fresh = [...lit].filter((t) => !ever.has(t)).length;
      lit.forEach((t) => ever.add(t));
      const r = await env.step(i);
      const next = r.info.state as S;
      if (k === clicks.length - 1) {
        expect(lit.size).toBe(s.targets.length);
        expect(r.reward).toBe(10 * fresh + 20);
        expect(next.level).toBe(2);
        expect(next.score).toBe(10 * (s.targets.length - litAtStart) + 20);
      } else {
        expect(r.reward).toBe(10 * fresh);
        expect(next.mirrors[i]).toBe(mirrors[i]);
        expect(next.hit).toEqual(s.targets.map((t) => (lit.has(t) ? 1 : 0)));
      }
    }
  });

  it('ends the game when the moves run out', async () => {
    const { env, state: s } = await game.start<S>(32, { observation: 'state', maxSteps: 400 });
    // A socket that cannot solve the board on its own, whatever its mirror.
    const sockets = s.cells.map((c, i) => (c === 2 ? i : -1)).filter((i) => i >= 0);
    const i = sockets.find((j) =>
      [0, 1, 2].every((m) => {
        const mirrors = s.mirrors.slice();
        mirrors[j] = m;
        return litTargets(s, mirrors).size < s.targets.length;
      }),
    )!;
    expect(i).toBeDefined();
    const last = await expectEndsOnMove(env, s.moveLimit, () => i);
    expect((last.info.state as S).gameOver).toBe(true);
  });

  game.framesChange<S>('renders a real frame that changes when a mirror turns', {
    seed: 2,
    before: (s) => [s.cells.indexOf(0)],
    change: (s) => s.cells.indexOf(2),
    distinct: 8,
    std: 5,
  });

  game.beatsRandom('the scripted solver beats a random clicker', { seeds: [3], maxSteps: 60, atLeast: 150, above: (r) => r + 100 });
});
