import type { ScriptedPolicy } from '../../gym/agents';
import type { TetrisVerifierState } from '../../verifiers/tetris';
import { COLS, boardStats, dropRow, fits, lockPiece, pieceCells, rotatePiece, type Piece } from './logic';

/**
 * Placement search: for every rotation and column the active piece can reach from where it
 * is now (rotating first, with the game's own kicks, then sliding), drop it, and score the
 * resulting board with a classic hand-tuned linear heuristic (aggregate height, cleared
 * lines, holes, bumpiness). Then rotate toward the best placement and drop the piece at its
 * column (the preset's drop-at-column drags). The choice is recomputed every step from the
 * state alone, so the policy is stateless.
 */
const ROTATE = 2,
  HARD_DROP = 4,
  DROP_AT_COLUMN = 6;

function evaluate(board: number[][], p: Piece): number {
  const r = lockPiece(board, p);
  if (r.toppedOut) return -1e9;
  const { heights, holes, bumpiness } = boardStats(r.board);
  const aggregate = heights.reduce((a, b) => a + b, 0);
  return -0.510066 * aggregate + 0.760666 * r.cleared.length - 0.35663 * holes - 0.184483 * bumpiness;
}

const policy: ScriptedPolicy<TetrisVerifierState> = (s) => {
  if (s.gameOver) return HARD_DROP;
  const board = s.board;
  const start: Piece = { type: s.piece.type, rot: s.piece.rot, x: s.piece.x, y: s.piece.y };
  let best: { score: number; rot: number; column: number } | null = null;
  let rotated: Piece | null = start;
  for (let turns = 0; turns < 4 && rotated; turns++) {
    if (turns > 0) rotated = rotatePiece(board, rotated, 1);
    if (!rotated) break;
    // Slide left and right from the rotated position as far as the piece fits.
    for (const dir of [-1, 1]) {
      let q: Piece = rotated;
      for (let k = 0; k <= COLS; k++) {
        if (k > 0) {
          const n = { ...q, x: q.x + dir };
          if (!fits(board, n)) break;
          q = n;
        }
        if (dir === 1 && k === 0) continue;
        const landed = { ...q, y: dropRow(board, q) };
        const score = evaluate(board, landed);
        if (!best || score > best.score + 1e-9) best = { score, rot: q.rot, column: Math.min(...pieceCells(q).map(([x]) => x)) };
      }
    }
    if (s.piece.type === 'O') break;
  }
  if (!best) return HARD_DROP;
  if (best.rot !== s.piece.rot) return ROTATE;
  return DROP_AT_COLUMN + best.column;
};
export default policy;
