import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { gameTests } from '../shared/testing/game-tests';
import type { Action } from '../../gym/schema';
import type { SokobanVerifierState } from '../../verifiers/sokoban';
import { OPPOSITE, PUSH_CELLS, frameOffset, isDeadlock, pushAction, pushesOfPlan, solve, step, type Dir } from './logic';

const RESTART = PUSH_CELLS * PUSH_CELLS * 4;
/** A walk or push of one cell by the keyboard (the preset pushes boxes by drags). */
const key = (d: Dir): Action => ({ type: 'key', key: ['ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft'][d] });
const gym = useBrowser();
const game = gameTests(gym, 'sokoban');
const st = (x: { info: { state: unknown } }) => x.info.state as SokobanVerifierState;

function decode(s: SokobanVerifierState) {
  const w = s.w;
  return {
    w,
    walls: s.map
      .join('')
      .split('')
      .map((ch) => ch === '#'),
    goals: s.goals.map(([x, y]) => y * w + x),
    boxes: s.boxes.map(([x, y]) => y * w + x),
    player: s.player[1] * w + s.player[0],
  };
}

/** The pushes of a plan of player moves, as preset drags, and the moves each push takes (walk and push). */
function pushesOf(s: SokobanVerifierState, moves: Dir[]): { action: number; moves: number }[] {
  const { w, boxes, player } = decode(s);
  const [ox, oy] = frameOffset(s.w, s.h);
  return pushesOfPlan(w, boxes, player, moves).map((p) => ({ action: pushAction((p.box % w) + ox, Math.floor(p.box / w) + oy, p.d), moves: p.moves }));
}

/** Breadth-first search over moves for the shortest sequence whose last push deadlocks a box. */
function findDeadlockingMoves(s: SokobanVerifierState): Dir[] | null {
  const { w, walls, goals, boxes, player } = decode(s);
  const goalSet = new Set(goals);
  const seen = new Set<string>();
  const queue: { player: number; boxes: number[]; path: Dir[] }[] = [{ player, boxes, path: [] }];
  while (queue.length) {
    const n = queue.shift()!;
    if (n.path.length > 16) break;
    for (let d = 0 as Dir; d < 4; d = (d + 1) as Dir) {
      const to = step(w, n.player, d);
      if (walls[to]) continue;
      const b = n.boxes.slice();
      const bi = b.indexOf(to);
      if (bi >= 0) {
        const beyond = step(w, to, d);
        if (walls[beyond] || b.includes(beyond)) continue;
        b[bi] = beyond;
        if (b.every((x) => goalSet.has(x))) continue;
        if (isDeadlock(walls, w, goalSet, new Set(b), beyond)) return [...n.path, d];
      }
      const key = `${to}|${b.join(',')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({ player: to, boxes: b, path: [...n.path, d] });
    }
  }
  return null;
}

describe('sokoban', () => {
  it('starts on a generated, solvable level 1 with one crate off its goal', async () => {
    const { env, observation, state: s } = await game.start<SokobanVerifierState>(3, { observation: ['state', 'vector'] });
    expect(s).toMatchObject({ score: 0, level: 1, lives: 3, solved: 0, moves: 0, boxesOnGoals: 0, gameOver: false });
    expect(s.boxes).toHaveLength(1);
    expect(observation.vector).toHaveLength(env.game.featureNames.length);
    const { w, walls, goals, boxes, player } = decode(s);
    const plan = solve(walls, w, goals, boxes, player).moves;
    expect(plan).not.toBeNull();
    expect(plan!.length).toBeLessThanOrEqual(s.moveLimit);
    const again = st(await env.reset({ seed: 3 }));
    expect(again.map).toEqual(s.map);
  });

  it('scores 10 + 100 on the drag that solves level 1, then moves on to a bigger level 2', async () => {
    const { env, state: s } = await game.start<SokobanVerifierState>(8, { observation: 'state' });
    const { w, walls, goals, boxes, player } = decode(s);
    const pushes = pushesOf(s, solve(walls, w, goals, boxes, player).moves!);
    expect(pushes.length).toBeGreaterThan(1);
    const rewards: number[] = [];
    let last;
    let moves = 0;
    for (const [k, p] of pushes.entries()) {
      last = await env.step(p.action);
      rewards.push(last.reward);
      moves += p.moves;
      // Each drag walks the player round to the box by the shortest way, every step a move.
      if (k < pushes.length - 1) expect(st(last)).toMatchObject({ moves, pushes: k + 1 });
    }
    expect(rewards.slice(0, -1).every((r) => r === 0)).toBe(true);
    expect(rewards[rewards.length - 1]).toBe(110);
    const s2 = st(last!);
    expect(s2).toMatchObject({ score: 110, level: 2, solved: 1, moves: 0, lives: 3 });
    expect(s2.boxes).toHaveLength(2);
  });

  it('a crate pushed into a dead corner costs a life and resets the level', async () => {
    const { env, state: s } = await game.start<SokobanVerifierState>(21, { observation: 'state' });
    const path = findDeadlockingMoves(s);
    expect(path).not.toBeNull();
    let last;
    for (const d of path!) last = await env.step(key(d));
    const after = st(last!);
    expect(after.lives).toBe(2);
    expect(after.lastLoss).toBe('deadlock');
    expect(after.moves).toBe(0);
    expect(after.boxes).toEqual(s.boxes);
    expect(after.player).toEqual(s.player);
    expect(last!.reward).toBe(0);
    expect(last!.terminated).toBe(false);
  });

  it('restarting is free; running out of moves three times ends the game', async () => {
    const { env, state: s } = await game.start<SokobanVerifierState>(5, { observation: 'state', maxSteps: 500 });
    const { w, walls, boxes, player } = decode(s);
    const d = ([0, 1, 2, 3] as Dir[]).find((k) => !walls[step(w, player, k)] && !boxes.includes(step(w, player, k)))!;
    await env.step(key(d));
    const r = st(await env.step(RESTART));
    expect(r).toMatchObject({ moves: 0, lives: 3, restarts: 1, player: s.player });
    // Pace back and forth: every step is a move, and the limit resets the level each time.
    let last;
    let n = 0;
    do {
      last = await env.step(key(n % 2 === 0 ? d : OPPOSITE[d]));
      n++;
      if (n === s.moveLimit) expect(st(last)).toMatchObject({ lives: 2, moves: 0, lastLoss: 'moves' });
    } while (!last.terminated && n < 3 * s.moveLimit + 5);
    expect(n).toBe(3 * s.moveLimit);
    expect(st(last)).toMatchObject({ lives: 0, gameOver: true, score: 0 });
    const page = env.currentPage!;
    const before = await page.evaluate(() => {
      const o = globalThis.__arcade.observe({ state: true, vector: false, pixels: null, frameHash: true });
      return JSON.stringify([o.state, o.frameHash]);
    });
    await page.evaluate(() => globalThis.__arcade.dispatch({ type: 'key', key: 'ArrowUp' }));
    await page.evaluate(() => globalThis.__arcade.advance(1000));
    expect(
      await page.evaluate(() => {
        const o = globalThis.__arcade.observe({ state: true, vector: false, pixels: null, frameHash: true });
        return JSON.stringify([o.state, o.frameHash]);
      }),
    ).toBe(before);
  });

  game.framesChange<SokobanVerifierState>('draws a real frame that changes when the player moves', {
    seed: 3,
    change: (s) => {
      const { w, walls, player } = decode(s);
      return key(([0, 1, 2, 3] as Dir[]).find((k) => !walls[step(w, player, k)])!);
    },
    distinct: 15,
    std: 10,
    check: (r) => expect(st(r).moves).toBe(1),
  });

  game.beatsRandom('the solver-driven scripted agent solves levels; a random agent does not', { seeds: [4], atLeast: 220, above: (r) => r + 150 });
});
