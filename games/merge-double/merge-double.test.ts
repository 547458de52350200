import { describe, expect, it } from 'vitest';
import { useBrowser, scriptedAndRandomScores } from '../../gym/testing';
import { gameTests, patchGameState } from '../shared/testing/game-tests';
import type { ArcadeEnv } from '../../gym';
import type { MergeDoubleVerifierState } from '../../verifiers/merge-double';

const gym = useBrowser();
const game = gameTests(gym, 'merge-double');
const cell = (r: number, c: number) => r * 5 + c;
type S = MergeDoubleVerifierState;

/** Puts a hand-made board (levels) and counters into the running game. */
function setBoard(env: ArcadeEnv, levels: number[][], extra: { movesLeft?: number } = {}): Promise<void> {
  return patchGameState(env, 'mergeDouble', { board: levels, maxLevel: Math.max(...levels.flat()), ...extra });
}

const BOARD = [
  [1, 2, 3, 1, 2],
  [2, 3, 1, 2, 3],
  [3, 1, 2, 3, 1],
  [1, 3, 3, 1, 2],
  [2, 2, 2, 3, 1],
];

describe('merge-double', () => {
  it('deals a seeded 5×5 board of 2, 4 and 8 with a first target of 32', async () => {
    const { env, observation, state: s } = await game.start<S>(3, { observation: ['state', 'vector'] });
    expect(s.board).toHaveLength(5);
    expect(s.board.flat().every((v) => [2, 4, 8].includes(v))).toBe(true);
    expect(s.target).toBe(32);
    expect(s.movesLeft).toBe(15);
    expect(s.score).toBe(0);
    expect(observation.vector).toHaveLength(28);
    const again = await env.reset({ seed: 3 });
    expect((again.info.state as S).board).toEqual(s.board);
    const other = await env.reset({ seed: 4 });
    expect((other.info.state as S).board).not.toEqual(s.board);
  });

  it('merges a group into the clicked tile, which doubles, then drops the columns', async () => {
    const { env } = await game.start(1, { observation: 'state' });
    await setBoard(env, BOARD);
    // A lone tile does nothing and costs nothing.
    const lone = await env.step(cell(0, 0));
    expect(lone.reward).toBe(0);
    expect((lone.info.state as S).levels).toEqual(BOARD);
    expect((lone.info.state as S).movesLeft).toBe(15);
    // Three 4s along the bottom merge into (4,1): an 8 there, 4×3 = 12 points.
    const r = await env.step(cell(4, 1));
    const s = r.info.state as S;
    expect(r.reward).toBe(12);
    expect(s.movesLeft).toBe(14);
    expect(s.levels[4][1]).toBe(3);
    expect(s.board[4][1]).toBe(8);
    for (let row = 0; row < 4; row++) expect(s.levels[row][1]).toBe(BOARD[row][1]);
    // Columns 0 and 2 lost their bottom tile: everything fell one row, a new tile came in on top.
    for (const col of [0, 2]) {
      for (let row = 1; row < 5; row++) expect(s.levels[row][col]).toBe(BOARD[row - 1][col]);
      expect(s.levels[0][col]).toBeGreaterThanOrEqual(1);
      expect(s.levels[0][col]).toBeLessThanOrEqual(3);
    }
    for (const col of [3, 4]) for (let row = 0; row < 5; row++) expect(s.levels[row][col]).toBe(BOARD[row][col]);
  });

  it('reaching the target advances the level with a bonus; running out of merges ends the game', async () => {
    const { env } = await game.start(2, { observation: 'state' });
    const board = BOARD.map((row) => row.slice());
    board[4][3] = 4;
    board[4][4] = 4;
    await setBoard(env, board);
    const up = await env.step(cell(4, 4));
    const s = up.info.state as S;
    // 16 + 16 merged (32 points) into a 32 = the target: +32 bonus, level 2 asks for 64.
    expect(up.reward).toBe(32 + 32);
    expect(s.level).toBe(2);
    expect(s.target).toBe(64);
    expect(s.maxTile).toBe(32);
    expect(s.movesLeft).toBe(15 - 1 + 19);
    await setBoard(env, BOARD, { movesLeft: 1 });
    const last = await env.step(cell(4, 0));
    expect(last.reward).toBe(12);
    expect(last.terminated).toBe(true);
    expect((last.info.state as S).movesLeft).toBe(0);
  });

  game.framesChange('renders a real frame that changes after a merge', {
    seed: 5,
    setup: (env) => setBoard(env, BOARD),
    change: cell(4, 2),
    distinct: 8,
  });

  it('the scripted agent beats a random agent', async () => {
    const env = await gym.env({ game: 'merge-double', seed: 0, observation: 'state' });
    let s = 0;
    let r = 0;
    for (const seed of [1, 2, 3]) {
      const scores = await scriptedAndRandomScores(env, seed);
      s += scores.scripted;
      r += scores.random;
    }
    expect(s).toBeGreaterThan(3 * r);
  });
});
