import { describe, expect, it } from 'vitest';
import { useBrowser, presetIndices } from '../../gym/testing';
import { expectEndsOnMove, gameTests } from '../shared/testing/game-tests';
import type { GuiAction } from '../../gym/schema';
import type { YarnUntangleVerifierState as S } from '../../verifiers/yarn-untangle';
import { planLayout } from './scripted-agent';

const [NEXT, PREV, UP, RIGHT, DOWN, LEFT] = presetIndices('yarn-untangle', ['next ball', 'previous ball', 'move up', 'move right', 'move down', 'move left']);
const gym = useBrowser();
const game = gameTests(gym, 'yarn-untangle');
type P = [number, number];

/** Proper crossings of strands that share no ball (enough for general-position layouts). */
function crossings(nodes: P[], edges: [number, number][]): number {
  const side = (a: P, b: P, c: P) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  let n = 0;
  for (let i = 0; i < edges.length; i++) {
    for (let j = i + 1; j < edges.length; j++) {
      const [a, b] = edges[i];
      const [c, d] = edges[j];
      if (a === c || a === d || b === c || b === d) continue;
      const [pa, pb, pc, pd] = [nodes[a], nodes[b], nodes[c], nodes[d]];
      if (side(pa, pb, pc) * side(pa, pb, pd) < 0 && side(pc, pd, pa) * side(pc, pd, pb) < 0) n++;
    }
  }
  return n;
}

describe('yarn-untangle', () => {
  it('selects and nudges balls with keys, drags them with the pointer, and scores removed crossings', async () => {
    const { env, observation, state: s0 } = await game.start<S>(51, { observation: ['state', 'vector'], maxSteps: 300 });
    let s = s0;
    expect(observation.vector).toHaveLength(25 * 5 + 4);
    expect(s.nodes).toHaveLength(6);
    expect(s.crossings).toBe(crossings(s.nodes, s.edges));
    expect(s.crossings).toBeGreaterThanOrEqual(3);
    let r = await env.step(NEXT);
    expect(r.reward).toBe(0);
    expect((r.info.state as S).selected).toBe(1);
    r = await env.step(PREV);
    r = await env.step(PREV);
    expect((r.info.state as S).selected).toBe(s.nodes.length - 1);
    expect((r.info.state as S).movesLeft).toBe(s.movesLeft);
    // One arrow press moves the selected ball 30 px and costs a move.
    const v = s.nodes.length - 1;
    const dir = s.nodes[v][1] - 30 >= s.area.minY ? UP : DOWN;
    r = await env.step(dir);
    let next = r.info.state as S;
    expect(next.nodes[v]).toEqual([s.nodes[v][0], s.nodes[v][1] + (dir === UP ? -30 : 30)]);
    expect(next.movesLeft).toBe(s.movesLeft - 1);
    let best = s.crossings;
    const scoreOf = (c: number) => {
      const gain = Math.max(0, best - c);
      best = Math.min(best, c);
      return gain;
    };
    expect(r.reward).toBe(scoreOf(crossings(next.nodes, next.edges)));
    s = next;
    // Drag every ball to a crossing-free layout; the last drag also earns the level bonus.
    const plan = planLayout(s.nodes.length, s.edges, s.area)!;
    expect(plan).not.toBeNull();
    expect(crossings(plan, s.edges)).toBe(0);
    for (let u = 0; u < plan.length && s.level === 1; u++) {
      const blocked = s.nodes.some((q, i) => i !== u && Math.hypot(q[0] - plan[u][0], q[1] - plan[u][1]) < 24);
      const to: P = blocked ? [plan[u][0] + 12, plan[u][1] + 12] : plan[u];
      const action: GuiAction = { type: 'drag', from: s.nodes[u], to };
      r = await env.step(action);
      next = r.info.state as S;
      const after = s.nodes.map((p, i) => (i === u ? to : p));
      const c = crossings(after, s.edges);
      if (next.level === 2) {
        expect(c).toBe(0);
        expect(r.reward).toBe(scoreOf(0) + 10);
      } else {
        expect(next.nodes[u]).toEqual(to);
        expect(next.crossings).toBe(c);
        expect(r.reward).toBe(scoreOf(c));
      }
      s = next;
    }
    expect(s.level).toBe(2);
    expect(s.nodes).toHaveLength(9);
    expect(s.score).toBe(s0.crossings + 10);
  });

  it('ends the game when the moves run out', async () => {
    const { env, state: s } = await game.start<S>(52, { observation: 'state', maxSteps: 400 });
    const x = s.nodes[0][0];
    const first = x + 30 <= s.area.maxX ? RIGHT : LEFT;
    const second = first === RIGHT ? LEFT : RIGHT;
    const moved = s.nodes.map((p, i) => (i === 0 ? ([x + (first === RIGHT ? 30 : -30), p[1]] as P) : p));
    expect(crossings(moved, s.edges)).toBeGreaterThan(0);
    const last = await expectEndsOnMove(env, s.moveLimit, (k) => (k % 2 === 0 ? first : second));
    expect((last.info.state as S).gameOver).toBe(true);
  });

  game.framesChange<S>('renders a real frame that changes when a ball moves', {
    seed: 2,
    before: () => [NEXT],
    change: (s) => (s.nodes[s.selected][1] - 30 >= s.area.minY ? UP : DOWN),
    distinct: 8,
    std: 5,
  });

  game.beatsRandom('the scripted agent beats a random player', { seeds: [3], maxSteps: 40, atLeast: 60, above: (r) => r + 40 });
});
