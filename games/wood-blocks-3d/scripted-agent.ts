import type { ScriptedPolicy } from '../../gym/agents';
import type { WoodBlocksVerifierState } from '../../verifiers/wood-blocks-3d';
import { SIZE, cellForCorner, dropAction, fits, fitsAnywhere, linePoints, place, type Board } from './logic';

/**
 * Greedy block placer: over every offered piece and every cell it fits, score the drop by its
 * points plus a board-shape heuristic (few isolated holes, few ragged edges, the other pieces
 * still fit somewhere, a free 3×3 square kept when it can be), then drag the piece there.
 */

const PLACE = 7;

function shapeScore(b: Board): number {
  let holes = 0;
  let edges = 0;
  const filled = (c: number, r: number) => c < 0 || r < 0 || c >= SIZE || r >= SIZE || b[r][c] !== 0;
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      const f = filled(c, r);
      if (f !== filled(c + 1, r)) edges++;
      if (f !== filled(c, r + 1)) edges++;
      if (!f && filled(c - 1, r) && filled(c + 1, r) && filled(c, r - 1) && filled(c, r + 1)) holes++;
    }
  }
  const square = { cells: [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => [c, r] as [number, number])), w: 3, h: 3 };
  return -4 * holes - 0.5 * edges + (fitsAnywhere(b, square) ? 4 : 0);
}

const policy: ScriptedPolicy<WoodBlocksVerifierState> = (s) => {
  if (s.gameOver) return PLACE;
  let best: { value: number; piece: number; col: number; row: number } | null = null;
  s.pieces.forEach((p, i) => {
    if (!p) return;
    for (let row = 0; row + p.h <= SIZE; row++) {
      for (let col = 0; col + p.w <= SIZE; col++) {
        if (!fits(s.board, p, col, row)) continue;
        const r = place(s.board, p, col, row, 1);
        const lines = r.rows.length + r.cols.length;
        let value = r.cells + linePoints(lines, lines ? s.combo + 1 : 1) + shapeScore(r.board);
        for (const [j, q] of s.pieces.entries()) if (q && j !== i && !fitsAnywhere(r.board, q)) value -= 60;
        if (!best || value > best.value) best = { value, piece: i, col, row };
      }
    }
  });
  if (!best) return PLACE;
  const b = best as { piece: number; col: number; row: number };
  const p = s.pieces[b.piece] as { w: number; h: number };
  const cell = cellForCorner(b.col, b.row, p.w, p.h);
  return dropAction(b.piece, cell.col, cell.row);
};
export default policy;
