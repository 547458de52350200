import { describe, expect, it } from 'vitest';
import { useBrowser, presetIndices } from '../../gym/testing';
import { expectEndsOnMove, gameTests } from '../shared/testing/game-tests';
import type { GuiAction } from '../../gym/schema';
import type { YarnUntangleVerifierState as S } from '../../verifiers/yarn-untangle';
import { tapAction } from './pegs';
import { planLayout } from './scripted-agent';
import { strandsCross } from './strands';

const [NEXT, PREV, UP, DOWN] = presetIndices('yarn-untangle', ['next ball', 'previous ball', 'move up', 'move down']);
const gym = useBrowser();
const game = gameTests(gym, 'yarn-untangle');
type P = [number, number];

/** Crossings by the game's own rule (strands that touch count: on pegs, balls are often in line). */
function crossings(nodes: P[], edges: [number, number][]): number {
  let n = 0;
  for (let i = 0; i < edges.length; i++) for (let j = i + 1; j < edges.length; j++) if (strandsCross(nodes, ...edges[i], ...edges[j])) n++;
  return n;
}

/** The peg a ball sits on. */
const pegOf = (s: S, v: number) => s.pegs.findIndex(([x, y]) => x === s.nodes[v][0] && y === s.nodes[v][1]);
const freePegs = (s: S) => s.pegs.map((_, i) => i).filter((i) => !s.nodes.some(([x, y]) => x === s.pegs[i][0] && y === s.pegs[i][1]));

describe('yarn-untangle', () => {
  it('selects and moves balls with keys and taps, drags them between pegs, and scores removed crossings', async () => {
    const { env, observation, state: s0 } = await game.start<S>(51, { observation: ['state', 'vector'], maxSteps: 300 });
    let s = s0;
    expect(observation.vector).toHaveLength(64 * 5 + 4);
    expect(s.nodes).toHaveLength(6);
    expect(s.pegs).toHaveLength(64);
    expect(s.nodes.every((_, v) => pegOf(s, v) >= 0)).toBe(true);
    expect(s.crossings).toBe(crossings(s.nodes, s.edges));
    expect(s.crossings).toBeGreaterThanOrEqual(3);
    let r = await env.step(NEXT);
    expect(r.reward).toBe(0);
    expect((r.info.state as S).selected).toBe(1);
    r = await env.step(PREV);
    r = await env.step(PREV);
    expect((r.info.state as S).selected).toBe(s.nodes.length - 1);
    expect((r.info.state as S).movesLeft).toBe(s.movesLeft);
    // One arrow press moves the selected ball to the next peg that way and costs a move.
    const v = s.nodes.length - 1;
    const dir = pegOf(s, v) >= 8 && freePegs(s).includes(pegOf(s, v) - 8) ? UP : DOWN;
    const to = pegOf(s, v) + (dir === UP ? -8 : 8);
    expect(freePegs(s)).toContain(to);
    r = await env.step(dir);
    let next = r.info.state as S;
    expect(next.nodes[v]).toEqual(s.pegs[to]);
    expect(next.movesLeft).toBe(s.movesLeft - 1);
    let best = s.crossings;
    const scoreOf = (c: number) => {
      const gain = Math.max(0, best - c);
      best = Math.min(best, c);
      return gain;
    };
    expect(r.reward).toBe(scoreOf(crossings(next.nodes, next.edges)));
    s = next;
    // A tap on a ball selects it; a tap on an empty peg moves the selected ball there (a move).
    r = await env.step(tapAction(pegOf(s, 0)));
    next = r.info.state as S;
    expect(next.selected).toBe(0);
    expect(next.movesLeft).toBe(s.movesLeft);
    s = next;
    const empty = freePegs(s)[0];
    r = await env.step(tapAction(empty));
    next = r.info.state as S;
    expect(next.nodes[0]).toEqual(s.pegs[empty]);
    expect(next.movesLeft).toBe(s.movesLeft - 1);
    expect(r.reward).toBe(scoreOf(crossings(next.nodes, next.edges)));
    s = next;
    // A ball dropped onto a taken peg goes back, and nothing changes.
    r = await env.step({ type: 'drag', from: s.nodes[1], to: s.nodes[2] });
    expect(r.info.state).toEqual({ ...s, selected: 1 });
    s = r.info.state as S;
    // Drag every ball to a crossing-free layout; the last drag also earns the level bonus.
    const plan = planLayout(s.nodes.length, s.edges)!;
    expect(plan).not.toBeNull();
    expect(crossings(plan, s.edges)).toBe(0);
    for (let k = 0; k < 3 * plan.length && s.level === 1; k++) {
      const u = s.nodes.findIndex((p, i) => (p[0] !== plan[i][0] || p[1] !== plan[i][1]) && !s.nodes.some((q) => q[0] === plan[i][0] && q[1] === plan[i][1]));
      // A planned peg still taken by another ball: park that ball on a peg no plan uses.
      const blocked = s.nodes.findIndex((p, i) => p[0] !== plan[i][0] || p[1] !== plan[i][1]);
      const spare = s.pegs[freePegs(s).find((i) => !plan.some((q) => q[0] === s.pegs[i][0] && q[1] === s.pegs[i][1]))!];
      const [ball, target]: [number, P] = u >= 0 ? [u, plan[u]] : [s.nodes.findIndex((p) => p[0] === plan[blocked][0] && p[1] === plan[blocked][1]), spare];
      const action: GuiAction = { type: 'drag', from: s.nodes[ball], to: [target[0] + 9, target[1] - 9] };
      r = await env.step(action);
      next = r.info.state as S;
      const after = s.nodes.map((p, i) => (i === ball ? target : p));
      const c = crossings(after, s.edges);
      if (next.level === 2) {
        expect(c).toBe(0);
        expect(r.reward).toBe(scoreOf(0) + 10);
      } else {
        expect(next.nodes[ball]).toEqual(target);
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
    // Ball 0 (selected) goes back and forth between its peg and a free one.
    const [home, away] = [pegOf(s, 0), freePegs(s)[0]];
    const moved = s.nodes.map((p, i) => (i === 0 ? s.pegs[away] : p));
    expect(crossings(moved, s.edges)).toBeGreaterThan(0);
    const last = await expectEndsOnMove(env, s.moveLimit, (k) => tapAction(k % 2 === 0 ? away : home));
    expect((last.info.state as S).gameOver).toBe(true);
  });

  game.framesChange<S>('renders a real frame that changes when a ball moves', {
    seed: 2,
    before: () => [NEXT],
    change: (s) => tapAction(freePegs(s)[0]),
    distinct: 8,
    std: 5,
  });

  game.beatsRandom('the scripted agent beats a random player', { seeds: [3], maxSteps: 40, atLeast: 60, above: (r) => r + 40 });
});
