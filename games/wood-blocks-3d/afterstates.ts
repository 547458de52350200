import type { DecisionFeatures } from '../../gym/core';
import { DROP_SLOTS, dropAllowed, dropStateOf, dropTarget } from './block-drop';
import { SIZE, fitsAnywhere, linePoints, place } from './logic';

/**
 * What each block-drop decision (block-drop.ts) would leave behind, as features: the board after
 * dropping the piece there and clearing full rows and columns, with the points it scores —
 * computed with the game's own rules module (logic.ts: the same `place` and `linePoints` the game
 * runs), from the verifier state alone. Every decision is one step (a drag), allowed or not.
 */

export const DROP_FEATURES = [
  'allowed',
  'points',
  'lines_cleared',
  'free_cells',
  'holes',
  'edges',
  'pieces_blocked',
  'square_fits',
  'ends_game',
  'new_set',
] as const;
export type DropFeature = (typeof DROP_FEATURES)[number];

/** Each feature is its raw count divided by this, so that a difference that matters is about 1. */
export const DROP_SCALE: Record<DropFeature, number> = {
  allowed: 1,
  points: 10,
  lines_cleared: 1,
  free_cells: 16,
  holes: 2,
  edges: 16,
  pieces_blocked: 1,
  square_fits: 1,
  ends_game: 1,
  new_set: 1,
};

const SQUARE = { cells: [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => [c, r] as [number, number])), w: 3, h: 3 };

/** Empty cells walled in on all four sides (by blocks or the edge), and boundaries between empty and filled cells (the edge counts as filled). */
function shape(b: readonly (readonly number[])[]): { holes: number; edges: number; free: number } {
  const size = b.length;
  const filled = (c: number, r: number) => c < 0 || r < 0 || c >= size || r >= size || b[r][c] !== 0;
  let holes = 0;
  let edges = 0;
  let free = 0;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const f = filled(c, r);
      if (!f) free++;
      if (f !== filled(c + 1, r)) edges++;
      if (f !== filled(c, r + 1)) edges++;
      if (c === 0 && !f) edges++;
      if (r === 0 && !f) edges++;
      if (!f && filled(c - 1, r) && filled(c + 1, r) && filled(c, r - 1) && filled(c, r + 1)) holes++;
    }
  }
  return { holes, edges, free };
}

/**
 * Afterstate features of every decision (d = size²·piece + size·row + col): [decisions × DROP_FEATURES]
 * row-major. A decision the board does not allow has every feature 0, as at game over.
 */
export function blockDropAfterstates(size = SIZE): DecisionFeatures {
  const perDecision = DROP_FEATURES.length;
  const numDecisions = DROP_SLOTS * size * size;
  return {
    perDecision,
    names: DROP_FEATURES,
    encode(info) {
      const out = new Float32Array(numDecisions * perDecision);
      const s = dropStateOf(info);
      if (s.gameOver) return out;
      if (s.size !== size) throw new Error(`block-drop afterstates were set up for a ${size}×${size} board, the game has ${s.size}×${s.size}`);
      for (let d = 0; d < numDecisions; d++) {
        const o = d * perDecision;
        const target = dropTarget(d, size);
        const allowed = dropAllowed(s, target);
        const raw: Partial<Record<DropFeature, number>> = {};
        if (allowed) {
          const { piece, col, row } = target;
          const p = s.pieces[piece]!;
          const r = place(s.board, p, col, row, 1);
          const lines = r.rows.length + r.cols.length;
          const others = s.pieces.filter((q, j) => q !== null && j !== piece);
          const blocked = others.filter((q) => !fitsAnywhere(r.board, q!)).length;
          const { holes, edges, free } = shape(r.board);
          Object.assign(raw, {
            allowed: 1,
            points: r.cells + linePoints(lines, lines > 0 ? s.combo + 1 : 1),
            lines_cleared: lines,
            free_cells: free,
            holes,
            edges,
            pieces_blocked: blocked,
            square_fits: fitsAnywhere(r.board, SQUARE) ? 1 : 0,
            ends_game: others.length > 0 && blocked === others.length ? 1 : 0,
            new_set: others.length === 0 ? 1 : 0,
          });
        }
        DROP_FEATURES.forEach((f, i) => {
          out[o + i] = (raw[f] ?? 0) / DROP_SCALE[f];
        });
      }
      return out;
    },
  };
}
