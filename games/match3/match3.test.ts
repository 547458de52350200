import { describe, expect, it } from 'vitest';
import { useBrowser, presetIndices } from '../../gym/testing';
import { gameTests } from '../shared/testing/game-tests';
import { SeededRandom } from '../../gym/random';
import type { Match3VerifierState } from '../../verifiers/match3';
import { findRuns, hasMove, levelGoal, neighbourPairs, newBoard, trySwap, type Board, type Cell } from './logic';

const gym = useBrowser();
const game = gameTests(gym, 'match3');
const st = (x: { info: { state: unknown } }) => x.info.state as Match3VerifierState;
const boardOf = (s: Match3VerifierState): Board => s.colours.map((row, r) => row.map((c, k) => c + 8 * s.specials[r][k]));

/** Every swap of a board, valid or not, as its preset action (one drag) with its refill-free points. */
function swaps(b: Board) {
  return neighbourPairs().map(([a, c]) => ({
    a,
    b: c,
    action: presetIndices('match3', [`r${a[0]}c${a[1]} ${c[0] === a[0] ? 'right' : 'down'}`])[0],
    points: trySwap(b, a, c, null)?.points ?? null,
  }));
}

describe('match3', () => {
  it('deals the board the seed gives: no lines on it, at least one swap, level 1 goals', async () => {
    const { env, observation, state: s } = await game.start<Match3VerifierState>(12, { observation: ['state', 'vector'] });
    // The page's Math.random is the runtime's seeded generator: the same rules in Node deal the same board.
    const rng = new SeededRandom(12);
    expect(boardOf(s)).toEqual(newBoard(() => rng.next()));
    expect(findRuns(boardOf(s))).toHaveLength(0);
    expect(hasMove(boardOf(s))).toBe(true);
    expect(s).toMatchObject({ score: 0, level: 1, movesLeft: levelGoal(1).moves, target: levelGoal(1).target, levelScore: 0 });
    expect(observation.vector).toHaveLength(env.game.featureNames.length);
  });

  it('scores swaps exactly as the rules predict, ignores swaps that make no line, and ends when swaps run out', async () => {
    const seed = 31;
    const env = await gym.env({ game: 'match3', seed, observation: 'state' });
    let s = st(await env.reset({ seed }));
    const rng = new SeededRandom(seed);
    const rand = () => rng.next();
    expect(boardOf(s)).toEqual(newBoard(rand));

    // A swap that makes no line is undone: the state is as it was.
    const bad = swaps(boardOf(s)).find((x) => x.points === null)!;
    const before = s;
    const refused = await env.step(bad.action);
    expect(refused.reward).toBe(0);
    expect(st(refused)).toEqual(before);
    s = st(refused);

    // Then always the cheapest valid swap: the rewards must match a Node replay of the rules,
    // fed by the same seeded generator, to the point.
    let expectedScore = 0;
    let level = 1;
    let movesLeft = levelGoal(1).moves;
    let levelScore = 0;
    let last;
    for (let n = 0; n < 40 && !last?.terminated; n++) {
      const options = swaps(boardOf(s))
        .filter((x) => x.points !== null)
        .sort((x, y) => x.points! - y.points!);
      const pick = options[0];
      const predicted = trySwap(boardOf(s), pick.a, pick.b, rand)!;
      let board = predicted.board;
      expectedScore += predicted.points;
      levelScore += predicted.points;
      movesLeft--;
      let over = false;
      if (levelScore >= levelGoal(level).target) {
        level++;
        levelScore = 0;
        movesLeft = levelGoal(level).moves;
      } else if (movesLeft === 0) over = true;
      if (!over && !hasMove(board)) board = newBoard(rand);
      last = await env.step(pick.action);
      s = st(last);
      expect(last.reward).toBe(predicted.points);
      expect(s.score).toBe(expectedScore);
      expect(boardOf(s)).toEqual(board);
      expect(s).toMatchObject({ level, movesLeft, levelScore, gameOver: over });
      expect(last.terminated).toBe(over);
    }
    expect(last!.terminated).toBe(true);
  });

  it('a pointer drag from a candy onto its neighbour swaps them', async () => {
    const { env, state: s } = await game.start<Match3VerifierState>(5, { observation: 'state' });
    const good = swaps(boardOf(s)).find((x) => x.points !== null)!;
    const centre = ([r, c]: Cell): [number, number] => [8 + c * 48 + 24, 68 + r * 48 + 24];
    const r = await env.step({ type: 'drag', from: centre(good.a), to: centre(good.b) });
    expect(st(r).swaps).toBe(1);
    expect(r.reward).toBeGreaterThanOrEqual(good.points!);
  });

  game.framesChange('draws a real frame that changes when candies are swapped', {
    seed: 3,
    change: (s: Match3VerifierState) => swaps(boardOf(s)).find((x) => x.points !== null)!.action,
    distinct: 30,
    std: 10,
  });

  game.beatsRandom('the greedy scripted agent out-scores a random agent', { seeds: [2], atLeast: 2000, above: (r) => r * 2 + 1000 });
});
