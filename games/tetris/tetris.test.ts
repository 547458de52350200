import { describe, expect, it } from 'vitest';
import { useBrowser, checkScriptedSteps, presetIndices } from '../../gym/testing';
import { gameTests } from '../shared/testing/game-tests';
import type { TetrisVerifierState } from '../../verifiers/tetris';
import { COLS, LINE_POINTS, dropRow, emptyBoard, lockPiece, pieceCells, placementColumn, spawnPiece } from './logic';

const [LEFT, RIGHT, ROTATE, SOFT, HARD, NOOP] = presetIndices('tetris', ['left', 'right', 'rotate', 'soft drop', 'hard drop', 'noop']);
const DROP_AT = presetIndices(
  'tetris',
  Array.from({ length: COLS }, (_, c) => `drop at column ${c + 1}`),
);
const gym = useBrowser();
const game = gameTests(gym, 'tetris');
const st = (x: { info: { state: unknown } }) => x.info.state as TetrisVerifierState;

describe('tetris', () => {
  it('spawns the first bag piece at the top and lets gravity pull it one row per 800 ms', async () => {
    const { env, observation, state: s } = await game.start<TetrisVerifierState>(4, { observation: ['state', 'vector'] });
    expect(s.score).toBe(0);
    expect(s.pieces).toBe(1);
    expect(s.board.flat().every((v) => v === 0)).toBe(true);
    expect(s.piece).toMatchObject(spawnPiece(s.piece.type));
    expect(s.next).toHaveLength(3);
    expect(observation.vector).toHaveLength(env.game.featureNames.length);
    const y0 = s.piece.y;
    const ys: number[] = [];
    for (let i = 1; i <= 17; i++) ys.push(st(await env.step(NOOP)).piece.y - y0);
    // 250 ms per step, 800 ms per row at level 1.
    expect(ys).toEqual(ys.map((_, i) => Math.floor(((i + 1) * 250) / 800)));
  });

  it('moves, rotates, soft-drops and hard-drops exactly as the rules module predicts', async () => {
    const { env, state: s0 } = await game.start<TetrisVerifierState>(11, { observation: 'state' });
    const s1 = st(await env.step(LEFT));
    expect(s1.piece.x).toBe(s0.piece.x - 1);
    const s2 = st(await env.step(RIGHT));
    expect(s2.piece.x).toBe(s0.piece.x);
    const s3 = st(await env.step(SOFT));
    expect(s3.piece.y).toBe(s0.piece.y + 1);
    const s4 = st(await env.step(ROTATE));
    expect(s4.piece.rot).toBe(s0.piece.type === 'O' ? 0 : 1);
    const piece = { type: s4.piece.type, rot: s4.piece.rot, x: s4.piece.x, y: s4.piece.y };
    const expected = lockPiece(emptyBoard(), { ...piece, y: dropRow(emptyBoard(), piece) }).board;
    const r = await env.step(HARD);
    const s5 = st(r);
    expect(r.reward).toBe(0);
    expect(s5.board).toEqual(expected);
    expect(s5.pieces).toBe(2);
    expect(s5.piece.type).toBe(s0.next[0]);
  });

  it('a swipe down drops the piece with its leftmost block in the column it ends over', async () => {
    const { env, state: s0 } = await game.start<TetrisVerifierState>(6, { observation: 'state' });
    let s = s0;
    let board = emptyBoard();
    for (const column of [0, 9, 4, 7]) {
      const piece = { type: s.piece.type, rot: s.piece.rot, x: s.piece.x, y: s.piece.y };
      const cells = pieceCells(piece);
      // Aimed past the right wall, the piece lands in the last column it fits at.
      const x = piece.x + placementColumn(cells, COLS, column) - Math.min(...cells.map(([cx]) => cx));
      board = lockPiece(board, { ...piece, x, y: dropRow(board, { ...piece, x }) }).board;
      const next = st(await env.step(DROP_AT[column]));
      expect(next.board, `drop at column ${column + 1}`).toEqual(board);
      expect(next.pieces).toBe(s.pieces + 1);
      s = next;
    }
  });

  it('ends when pieces stacked in the middle leave no room to spawn, and then stops changing', async () => {
    const { env } = await game.start(2, { observation: 'state' });
    let last;
    let n = 0;
    do {
      last = await env.step(HARD);
      n++;
    } while (!last.terminated && n < 60);
    expect(last.terminated).toBe(true);
    expect(last.truncated).toBe(false);
    expect(last.info.episode?.totals.score).toBe(0);
    // Each hard drop locks a piece; a 20-row well holds at most 20 stacked pieces of height >= 1.
    expect(n).toBeGreaterThan(4);
    expect(n).toBeLessThanOrEqual(20);
    const page = env.currentPage!;
    const before = await page.evaluate(() => {
      const o = globalThis.__arcade.observe({ state: true, vector: false, pixels: null, frameHash: true });
      return JSON.stringify([o.state, o.frameHash]);
    });
    await page.evaluate(() => globalThis.__arcade.advance(5000));
    const after = await page.evaluate(() => {
      const o = globalThis.__arcade.observe({ state: true, vector: false, pixels: null, frameHash: true });
      return JSON.stringify([o.state, o.frameHash]);
    });
    expect(after).toBe(before);
  });

  it('pays 100/300/500/800 × level for cleared lines, every step, under the scripted agent', async () => {
    const env = await gym.env({ game: 'tetris', seed: 1, observation: 'state' });
    let clears = 0;
    await checkScriptedSteps<TetrisVerifierState>(
      env,
      1,
      (prev, _action, r) => {
        const s = st(r);
        const lines = s.lines - prev.lines;
        expect(r.reward).toBe(LINE_POINTS[lines] * prev.level);
        expect(s.level).toBe(1 + Math.floor(s.lines / 10));
        if (lines > 0) clears++;
      },
      100,
    );
    expect(clears).toBeGreaterThanOrEqual(2);
  });

  game.framesChange('draws a real frame that changes when the piece moves', { seed: 3, before: () => [HARD], change: LEFT, distinct: 15, std: 10 });

  game.beatsRandom('the scripted agent clears lines while a random agent tops out', {
    seeds: [7],
    atLeast: 800,
    above: (r) => r + 600,
  });
});
