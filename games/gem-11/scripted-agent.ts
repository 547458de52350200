import type { ScriptedPolicy } from '../../gym/agents';
import type { Gem11VerifierState } from '../../verifiers/gem-11';
import { emptyCount, groupAt, place, spawnRange, type Board } from './logic';

/**
 * Greedy placement: try the incoming gem on every free cell and score the board it leaves:
 * points made, free cells (room to survive), and pairs of equal gems (the next equal gem
 * merges them), while gems of different values boxed in by each other count against it.
 * Preset index = r * cols + c.
 */

function shape(board: Board): number {
  let pairs = 0;
  let crowded = 0;
  const seen = new Set<number>();
  for (let r = 0; r < board.length; r++) {
    for (let c = 0; c < board[r].length; c++) {
      const v = board[r][c];
      if (!v) continue;
      if (!seen.has(r * 16 + c)) {
        const g = groupAt(board, r, c);
        for (const [y, x] of g) seen.add(y * 16 + x);
        if (g.length === 2) pairs += 2 + v * 0.5;
      }
      let freeAround = 0;
      for (const [dy, dx] of [
        [-1, 0],
        [1, 0],
        [0, -1],
        [0, 1],
      ])
        if (board[r + dy]?.[c + dx] === 0) freeAround++;
      if (freeAround === 0) crowded++;
    }
  }
  return pairs * 3 - crowded * 2;
}

function leaf(board: Board): number {
  return emptyCount(board) * 6 + shape(board);
}

/** Expected value of the best placement of the gem after this one, over its distribution. */
function lookahead(board: Board, bestGem: number): number {
  const [lo, hi] = spawnRange(bestGem);
  let total = 0;
  let weights = 0;
  for (let v = lo; v <= hi; v++) {
    const wgt = hi - v + 2;
    let best = -200;
    for (let r = 0; r < board.length; r++) {
      for (let c = 0; c < board[r].length; c++) {
        const p = place(board, r, c, v);
        if (p) best = Math.max(best, p.gained + leaf(p.board));
      }
    }
    total += wgt * best;
    weights += wgt;
  }
  return total / weights;
}

const policy: ScriptedPolicy<Gem11VerifierState> = (s) => {
  let best = { value: -Infinity, index: 0 };
  for (let r = 0; r < s.rows; r++) {
    for (let c = 0; c < s.cols; c++) {
      const p = place(s.board, r, c, s.next);
      if (!p) continue;
      const made = Math.max(s.bestGem, s.next, ...p.merges.map((m) => m.made));
      const value = p.gained + (emptyCount(p.board) === 0 ? -1000 : lookahead(p.board, made));
      if (value > best.value) best = { value, index: r * s.cols + c };
    }
  }
  return best.index;
};
export default policy;
