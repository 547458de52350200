import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { gameTests } from '../shared/testing/game-tests';
import type { EmojiSortVerifierState } from '../../verifiers/emoji-sort';
import { applyMove, canMove, isFullSet, levelKinds, moveLimit, solve } from './logic';
import { dragIndex } from './scripted-agent';

const gym = useBrowser();
const game = gameTests(gym, 'emoji-sort');
const st = (x: { info: { state: unknown } }) => x.info.state as EmojiSortVerifierState;

describe('emoji-sort', () => {
  it('deals level 1 from the seed: 4 kinds of 4 faces in 4 tubes, 4 empty tubes, a solver-checked par', async () => {
    const { env, observation, state: s } = await game.start<EmojiSortVerifierState>(2, { observation: ['state', 'vector'] });
    expect(s).toMatchObject({ score: 0, level: 1, kinds: 4, selected: -1, moves: 0, gameOver: false });
    expect(s.tubes.map((t) => t.length)).toEqual([4, 4, 4, 4, 0, 0, 0, 0]);
    const counts = new Array(4).fill(0);
    for (const t of s.tubes) for (const k of t) counts[k]++;
    expect(counts).toEqual([4, 4, 4, 4]);
    expect(solve(s.tubes)!.length).toBe(s.par);
    expect(s.moveLimit).toBe(moveLimit(s.par));
    expect(observation.vector).toHaveLength(env.game.featureNames.length);
  });

  it('picks up, puts back and switches tubes with single clicks', async () => {
    const { env, state: s } = await game.start<EmojiSortVerifierState>(4, { observation: 'state' });
    // A person's clicks: the preset is drags, so these are GUI actions of their own.
    const click = (tube: number) => env.step({ type: 'click', x: 30 + 60 * tube, y: 200 });
    expect(st(await click(6)).selected).toBe(-1); // an empty tube cannot be picked up
    expect(st(await click(0)).selected).toBe(0);
    expect(st(await click(0)).selected).toBe(-1); // clicking it again puts the faces back
    // Picked tube 0, then a full tube: no room, so the pick switches to that tube.
    await click(0);
    const switched = st(await click(1));
    expect(switched).toMatchObject({ selected: 1, moves: 0, tubes: s.tubes });
  });

  it('pours with one drag where the faces fit, and puts them back where they do not', async () => {
    const { env, state: s } = await game.start<EmojiSortVerifierState>(4, { observation: 'state' });
    expect(env.game.manifest.preset).toHaveLength(56);
    // Tube 1 onto tube 2: both full, nothing fits, so the drag leaves the game as it was.
    expect(canMove(s.tubes, 0, 1)).toBe(false);
    const refused = await env.step(dragIndex([0, 1]));
    expect(st(refused)).toMatchObject({ selected: -1, moves: 0, tubes: s.tubes });
    expect(refused.info.actionMask?.[dragIndex([0, 1])]).toBe(0);
    // Tube 1 into empty tube 5: one move, its top run poured.
    const poured = await env.step(dragIndex([0, 4]));
    expect(st(poured)).toMatchObject({ selected: -1, moves: 1, tubes: applyMove(s.tubes, 0, 4).tubes });
  });

  it('scores 10 per gathered kind and 100 for the sorted level when the solution is dragged through', async () => {
    const { env, state: s } = await game.start<EmojiSortVerifierState>(9, { observation: 'state' });
    const plan = solve(s.tubes)!;
    let tubes = s.tubes;
    const done = new Set<number>();
    let last;
    for (const [from, to] of plan) {
      tubes = applyMove(tubes, from, to).tubes;
      let expected = 0;
      for (const t of tubes) if (isFullSet(t) && !done.has(t[0])) done.add(t[0]), (expected += 10);
      last = await env.step(dragIndex([from, to]));
      const solved = done.size === 4;
      expect(last.reward).toBe(expected + (solved ? 100 : 0));
      if (!solved) expect(st(last).tubes).toEqual(tubes);
    }
    const s2 = st(last!);
    expect(s2).toMatchObject({ score: 140, level: 2, solved: 1, kinds: levelKinds(2), moves: 0 });
    expect(s2.tubes.filter((t) => t.length === 0)).toHaveLength(8 - levelKinds(2));
  });

  it('ends the game when the level runs out of moves', async () => {
    const { env, state: s } = await game.start<EmojiSortVerifierState>(6, { observation: 'state', maxSteps: 200 });
    // Pour tube 1's top faces into empty tube 5, then shuttle them between tubes 5 and 6.
    const pairs: [number, number][] = [[0, 4]];
    for (let i = 1; i < s.moveLimit; i++) pairs.push(i % 2 ? [4, 5] : [5, 4]);
    let last;
    for (let i = 0; i < pairs.length; i++) {
      last = await env.step(dragIndex(pairs[i]));
      expect(st(last).moves).toBe(i + 1);
      expect(last.terminated).toBe(i + 1 === s.moveLimit);
    }
    expect(st(last!)).toMatchObject({ gameOver: true, score: 0 });
  });

  game.framesChange('draws a real frame that changes when faces are poured', { seed: 3, change: dragIndex([0, 4]), distinct: 30, std: 10 });

  game.beatsRandom('the solving scripted agent sorts levels; random drags do not', { seeds: [1], atLeast: 280, above: (r) => r + 200 });
});
