import { describe, expect, it } from 'vitest';
import { useBrowser, presetIndices } from '../../gym/testing';
import { gameTests } from '../shared/testing/game-tests';
import type { G2048VerifierState } from '../../verifiers/g2048';
import { DIRS, canMove, slide } from './logic';

const [UP, RIGHT, DOWN, LEFT] = presetIndices('g2048', ['up', 'right', 'down', 'left']);
const gym = useBrowser();
const game = gameTests(gym, 'g2048');
const tiles = (b: number[][]) => b.flat().filter((v) => v > 0);
/** A board written row by row, tiles separated by spaces. */
const rows = (...lines: string[]) => lines.map((line) => line.split(' ').map(Number));

describe('g2048 rules', () => {
  it.each([
    {
      dir: 'left',
      grid: rows('2 2 2 2', '2 2 4 0', '4 0 4 8', '0 0 0 2'),
      want: rows('4 4 0 0', '4 4 0 0', '8 8 0 0', '2 0 0 0'),
      gained: 4 + 4 + 4 + 8,
      moved: true,
    },
    { dir: 'right', grid: rows('2 2 4 0', '0 0 0 0', '0 0 0 0', '0 0 0 0'), want: rows('0 0 4 4', '0 0 0 0', '0 0 0 0', '0 0 0 0'), gained: 4, moved: true },
    { dir: 'down', grid: rows('2 0 0 0', '2 0 0 0', '4 0 0 0', '4 0 0 0'), want: rows('0 0 0 0', '0 0 0 0', '4 0 0 0', '8 0 0 0'), gained: 12, moved: true },
    { dir: 'left', grid: rows('2 4 0 0', '0 0 0 0', '0 0 0 0', '0 0 0 0'), want: rows('2 4 0 0', '0 0 0 0', '0 0 0 0', '0 0 0 0'), gained: 0, moved: false },
  ] as const)('slides $dir, merging each pair once towards the edge (+$gained)', ({ dir, grid, want, gained, moved }) => {
    const r = slide(grid, dir);
    expect(r.grid).toEqual(want);
    expect(r.gained).toBe(gained);
    expect(r.moved).toBe(moved);
  });

  it('finds a move while two equal tiles touch, and none on a chequered board', () => {
    expect(canMove(rows('2 4 2 4', '4 2 4 2', '2 4 2 4', '4 2 4 2'))).toBe(false);
    expect(canMove(rows('2 4 2 4', '4 2 4 2', '2 4 2 4', '4 2 4 4'))).toBe(true);
  });
});

describe('g2048', () => {
  it('starts with two seeded tiles of 2 or 4', async () => {
    const { env, observation, state: s } = await game.start<G2048VerifierState>(7, { observation: ['state', 'vector'] });
    expect(tiles(s.board)).toHaveLength(2);
    expect(tiles(s.board).every((v) => v === 2 || v === 4)).toBe(true);
    expect(s.score).toBe(0);
    expect(s.gameOver).toBe(false);
    expect(observation.vector).toHaveLength(18);
    const b = await env.reset({ seed: 7 });
    expect((b.info.state as G2048VerifierState).board).toEqual(s.board);
    const boards = new Set([JSON.stringify(s.board)]);
    for (let seed = 8; seed < 14; seed++) boards.add(JSON.stringify(((await env.reset({ seed })).info.state as G2048VerifierState).board));
    expect(boards.size).toBeGreaterThan(1);
  });

  it('each move applies the rules at once: reward = merged sums, one new tile after a change', async () => {
    // msPerStep 30 sends every key while the previous move still animates (140 ms); the
    // settled boards must be the same as with the game's own 150 ms per step.
    const actions = [LEFT, UP, RIGHT, DOWN, LEFT, LEFT, UP, UP, RIGHT, DOWN, LEFT, UP, RIGHT, DOWN, DOWN, LEFT, UP, UP, RIGHT, LEFT];
    const boardsAt: Record<number, string[]> = {};
    for (const msPerStep of [150, 30]) {
      const { env, state } = await game.start<G2048VerifierState>(11, { observation: 'state', msPerStep });
      let prev = state;
      let total = 0;
      boardsAt[msPerStep] = [];
      for (const a of actions) {
        const r = await env.step(a);
        const s = r.info.state as G2048VerifierState;
        const expected = slide(prev.board, DIRS[a]);
        expect(r.reward).toBe(expected.gained);
        total += r.reward;
        expect(s.score).toBe(total);
        if (!expected.moved) {
          expect(s.board).toEqual(prev.board);
        } else {
          const diffs: number[] = [];
          for (let i = 0; i < 16; i++) {
            const want = expected.grid[Math.floor(i / 4)][i % 4];
            const got = s.board[Math.floor(i / 4)][i % 4];
            if (want !== got) {
              expect(want).toBe(0);
              diffs.push(got);
            }
          }
          expect(diffs).toHaveLength(1);
          expect([2, 4]).toContain(diffs[0]);
        }
        boardsAt[msPerStep].push(JSON.stringify(s.board));
        prev = s;
        if (r.terminated) break;
      }
    }
    expect(boardsAt[30]).toEqual(boardsAt[150]);
  });

  it('ends the game when no move is left, and then ignores input', async () => {
    const { env } = await game.start(2, { observation: 'state' });
    // Left merges the two 8s into 16; whichever tile spawns in the freed corner (2 or 4)
    // has no equal neighbour, so no move remains.
    await env.currentPage!.evaluate(() => {
      (window as unknown as { g2048: { grid: number[][] } }).g2048.grid = [
        [2, 4, 2, 4],
        [4, 2, 4, 2],
        [2, 4, 2, 8],
        [4, 2, 8, 8],
      ];
    });
    const r = await env.step(LEFT);
    const s = r.info.state as G2048VerifierState;
    expect(r.reward).toBe(16);
    expect(r.terminated).toBe(true);
    expect(s.board[3].slice(0, 3)).toEqual([4, 2, 16]);
    expect([2, 4]).toContain(s.board[3][3]);
    const after = await env.currentPage!.evaluate(() => {
      for (const key of ['ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft'])
        globalThis.__arcade.step({ action: { type: 'key', key }, ms: 150, obs: { state: true, vector: false, pixels: null, frameHash: false } });
      return globalThis.__arcade.observe({ state: true, vector: false, pixels: null, frameHash: false }).state;
    });
    expect(after).toEqual(s);
  });

  game.framesChange('renders a real frame that changes with the board', { seed: 4, change: RIGHT, distinct: 8 });

  game.beatsRandom('the scripted agent beats a random agent', { seeds: [0, 1], maxSteps: 250, atLeast: 2000, above: (r) => 2 * r });
});
