import type { ScriptedPolicy } from '../../gym/agents';
import type { MergeDoubleVerifierState } from '../../verifiers/merge-double';
import { groupAt, merge, valueOf, type Board } from './logic';

/**
 * Greedy planner with one ply of lookahead on the part of the board it can see: for every
 * cell that merges something, merge there (holes where new tiles will fall), then add the
 * best follow-up merge on that board. Big, high-level merges and merges that leave the new
 * tile touching an equal one win; reaching the level's target wins outright.
 * Preset index = r * cols + c.
 */

const noSpawn = () => 0;

function candidates(board: Board): [number, number][] {
  const out: [number, number][] = [];
  for (let r = 0; r < board.length; r++) for (let c = 0; c < board[r].length; c++) if (groupAt(board, r, c).length >= 2) out.push([r, c]);
  return out;
}

function followUp(board: Board): number {
  let best = 0;
  const seen = new Set<number>();
  for (let r = 0; r < board.length; r++) {
    for (let c = 0; c < board[r].length; c++) {
      if (seen.has(r * 8 + c) || !board[r][c]) continue;
      const g = groupAt(board, r, c);
      for (const [y, x] of g) seen.add(y * 8 + x);
      if (g.length >= 2) best = Math.max(best, valueOf(board[r][c]) * g.length * 2);
    }
  }
  return best;
}

const policy: ScriptedPolicy<MergeDoubleVerifierState> = (s) => {
  const board = s.levels;
  let best: { value: number; index: number } | null = null;
  for (const [r, c] of candidates(board)) {
    const m = merge(board, r, c, noSpawn)!;
    const [ar, ac] = m.at;
    let touching = 0;
    for (const [dy, dx] of [
      [-1, 0],
      [1, 0],
      [0, -1],
      [0, 1],
    ])
      if (m.board[ar + dy]?.[ac + dx] === m.level) touching++;
    let value = m.gained * 2 + followUp(m.board) + touching * valueOf(m.level) * 2;
    if (m.level >= s.targetLevel) value += 1e6;
    // Keep big tiles low: falling tiles then land on them less often by chance.
    value += ar * 0.01 * valueOf(m.level);
    const index = r * s.cols + c;
    if (!best || value > best.value) best = { value, index };
  }
  return best ? best.index : 0;
};
export default policy;
