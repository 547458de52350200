import { describe, expect, it } from 'vitest';
import { useBrowser, presetIndices } from '../../gym/testing';
import { gameTests } from '../shared/testing/game-tests';
import type { FreeTheKeyVerifierState } from '../../verifiers/free-the-key';
import { legalMoves, moveLimit, solve, type Block, type Move } from './logic';

const [NEXT, PREV] = presetIndices('free-the-key', ['select next block', 'select previous block']);
const [UP, DOWN, LEFT, RIGHT] = presetIndices('free-the-key', ['slide up', 'slide down', 'slide left', 'slide right']);
const gym = useBrowser();
const game = gameTests(gym, 'free-the-key');
const st = (x: { info: { state: unknown } }) => x.info.state as FreeTheKeyVerifierState;
const decode = (s: FreeTheKeyVerifierState) => ({
  blocks: s.blocks.map((b): Block => ({ horiz: b.horiz, len: b.len, line: b.horiz ? b.row : b.col })),
  pos: s.blocks.map((b) => (b.horiz ? b.col : b.row)),
});

/** Preset actions that play `moves` starting with `selected` selected. */
function actionsFor(moves: Move[], blocks: Block[], selected: number): number[] {
  const out: number[] = [];
  for (const [bi, delta] of moves) {
    while (selected !== bi) {
      out.push(NEXT);
      selected = (selected + 1) % blocks.length;
    }
    out.push(blocks[bi].horiz ? (delta > 0 ? RIGHT : LEFT) : delta > 0 ? DOWN : UP);
  }
  return out;
}

describe('free-the-key', () => {
  it('starts with a generated puzzle whose stated optimum matches a breadth-first solve', async () => {
    const { env, observation, state: s } = await game.start<FreeTheKeyVerifierState>(2, { observation: ['state', 'vector'] });
    expect(s).toMatchObject({ score: 0, level: 1, moves: 0, selected: 0, gameOver: false, exitRow: 2 });
    expect(s.blocks[0]).toMatchObject({ horiz: true, len: 2, row: 2 });
    const { blocks, pos } = decode(s);
    expect(solve(blocks, pos)!.length).toBe(s.optimal);
    expect(s.optimal).toBeGreaterThanOrEqual(4);
    expect(s.moveLimit).toBe(moveLimit(s.optimal));
    expect(observation.vector).toHaveLength(env.game.featureNames.length);
  });

  it('pays 10 points per optimal slide when the key gets out, then serves a harder puzzle', async () => {
    const { env, state: s } = await game.start<FreeTheKeyVerifierState>(6, { observation: 'state' });
    const { blocks, pos } = decode(s);
    const actions = actionsFor(solve(blocks, pos)!, blocks, s.selected);
    const rewards: number[] = [];
    let last;
    for (const a of actions) {
      last = await env.step(a);
      rewards.push(last.reward);
    }
    expect(rewards.slice(0, -1).every((x) => x === 0)).toBe(true);
    expect(rewards[rewards.length - 1]).toBe(10 * s.optimal);
    const s2 = st(last!);
    expect(s2).toMatchObject({ level: 2, solved: 1, moves: 0, score: 10 * s.optimal });
    expect(s2.optimal).toBeGreaterThan(s.optimal);
    const next = decode(s2);
    expect(solve(next.blocks, next.pos)!.length).toBe(s2.optimal);
  });

  it('counts only real slides and ends the game when the move limit runs out', async () => {
    const { env, state: s } = await game.start<FreeTheKeyVerifierState>(4, { observation: 'state' });
    const { blocks, pos } = decode(s);
    // A block other than the key that can move, shuttled back and forth.
    const [bi, delta] = legalMoves(blocks, pos).find(([b]) => b !== 0)!;
    const there = blocks[bi].horiz ? (delta > 0 ? RIGHT : LEFT) : delta > 0 ? DOWN : UP;
    const back = blocks[bi].horiz ? (delta > 0 ? LEFT : RIGHT) : delta > 0 ? UP : DOWN;
    const prep = actionsFor([[bi, delta]], blocks, 0).slice(0, -1);
    for (const a of prep) expect(st(await env.step(a)).moves).toBe(0);
    expect(st(await env.step(NEXT)).selected).toBe((bi + 1) % blocks.length);
    expect(st(await env.step(PREV)).selected).toBe(bi);
    // A slide across the block's axis does nothing.
    expect(st(await env.step(blocks[bi].horiz ? UP : LEFT)).moves).toBe(0);
    let last;
    for (let i = 0; i < s.moveLimit; i++) {
      last = await env.step(i % 2 === 0 ? there : back);
      expect(st(last).moves).toBe(i + 1);
      expect(last.terminated).toBe(i + 1 === s.moveLimit);
    }
    expect(last!.info.episode?.totals.score).toBe(0);
  });

  game.framesChange('draws a real frame that changes with the selection', { seed: 3, before: () => [NEXT], change: NEXT, distinct: 15, std: 10 });

  it('a pointer drag selects a block and slides it', async () => {
    const { env, state: s } = await game.start<FreeTheKeyVerifierState>(5, { observation: 'state' });
    const { blocks, pos } = decode(s);
    const [bi, delta] = legalMoves(blocks, pos).find(([b]) => b !== 0) ?? legalMoves(blocks, pos)[0];
    const b = s.blocks[bi];
    const cx = 20 + b.col * 60 + 30;
    const cy = 60 + b.row * 60 + 30;
    const to: [number, number] = b.horiz ? [cx + delta * 60, cy] : [cx, cy + delta * 60];
    const r = st(await env.step({ type: 'drag', from: [cx, cy], to }));
    expect(r.selected).toBe(bi);
    expect(r.moves).toBe(1);
    expect(r.blocks[bi][b.horiz ? 'col' : 'row']).toBe((b.horiz ? b.col : b.row) + delta);
  });

  game.beatsRandom('the solving scripted agent frees keys; a random agent does not', { seeds: [3], atLeast: 150, above: (r) => r + 100 });
});
