import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../gym/testing';
import { gameTests, patchGameState } from '../shared/testing/game-tests';
import type { ArcadeEnv } from '../../gym';
import type { Gem11VerifierState } from '../../verifiers/gem-11';

const gym = useBrowser();
const game = gameTests(gym, 'gem-11');
const cell = (r: number, c: number) => r * 5 + c;
type S = Gem11VerifierState;

const setGame = (env: ArcadeEnv, board: number[][], next: number) => patchGameState(env, 'gem11', { board, next });

const empty = () => Array.from({ length: 5 }, () => [0, 0, 0, 0, 0]);

describe('gem-11', () => {
  it('starts with a few seeded gems, no three alike touching, and a small incoming gem', async () => {
    const { env, observation, state: s } = await game.start<S>(3, { observation: ['state', 'vector'] });
    const gems = s.board.flat().filter((v) => v > 0);
    expect(gems.length).toBeGreaterThan(0);
    expect(gems.length).toBeLessThanOrEqual(5);
    expect(s.next).toBeGreaterThanOrEqual(1);
    expect(s.next).toBeLessThanOrEqual(3);
    expect([s.spawnMin, s.spawnMax]).toEqual([1, 3]);
    expect(s.score).toBe(0);
    expect(observation.vector).toHaveLength(28);
    expect(((await env.reset({ seed: 3 })).info.state as S).board).toEqual(s.board);
    const boards = new Set([JSON.stringify(s.board)]);
    for (let seed = 4; seed < 8; seed++) boards.add(JSON.stringify(((await env.reset({ seed })).info.state as S).board));
    expect(boards.size).toBeGreaterThan(1);
  });

  it('fuses three equal gems on the played cell and chains the fusions', async () => {
    const { env } = await game.start(1, { observation: 'state' });
    const board = empty();
    board[0][0] = 2;
    board[0][1] = 2;
    board[1][2] = 3;
    board[2][2] = 3;
    board[4][4] = 5;
    await setGame(env, board, 2);
    // A taken cell: nothing happens.
    const taken = await env.step(cell(4, 4));
    expect(taken.reward).toBe(0);
    expect((taken.info.state as S).board).toEqual(board);
    // 2+2+2 → a 3 on (0,2): 3×3×1 = 9; that 3 with the two 3s below → a 4: 4×3×2 = 24.
    const r = await env.step(cell(0, 2));
    const s = r.info.state as S;
    expect(r.reward).toBe(33);
    const want = empty();
    want[0][2] = 4;
    want[4][4] = 5;
    expect(s.board).toEqual(want);
    expect(s.bestGem).toBe(4);
    expect(s.placed).toBe(1);
  });

  it('an 11 scores the bonus and bursts; a full board ends the game', async () => {
    const { env } = await game.start(2, { observation: 'state' });
    const board = empty();
    board[2][1] = 10;
    board[2][3] = 10;
    await setGame(env, board, 10);
    const r = await env.step(cell(2, 2));
    const s = r.info.state as S;
    expect(r.reward).toBe(11 * 3 + 1000);
    expect(s.elevens).toBe(1);
    expect(s.board.flat().every((v) => v === 0)).toBe(true);
    expect(s.bestGem).toBe(11);
    // No two equal gems touch anywhere; the last free cell takes a 9 and the board is full.
    const full = Array.from({ length: 5 }, (_, r) => Array.from({ length: 5 }, (_, c) => 1 + ((r * 2 + c) % 5)));
    full[4][4] = 0;
    await setGame(env, full, 9);
    const last = await env.step(cell(4, 4));
    expect(last.reward).toBe(0);
    expect(last.terminated).toBe(true);
    expect((last.info.state as S).empty).toBe(0);
  });

  game.framesChange('renders a real frame that changes when a gem is placed', {
    seed: 5,
    setup: (env) => setGame(env, empty(), 4),
    change: cell(2, 2),
    distinct: 8,
  });

  game.beatsRandom('the scripted agent beats a random agent', { seeds: [0, 1], atLeast: 400, above: (r) => 3 * r });
});
