import type { ScriptedPolicy } from '../../gym/agents';
import type { ShapesVerifierState } from '../../verifiers/shapes';
import { dropAction, FIRST_TAP, LIFT, normalise, rotateCells, sizeOf, type Cell } from './cells';

/**
 * Exact cover by backtracking: the first empty outline cell (row-major) must be covered by
 * some unplaced piece in some orientation, with the piece's first cell on it. With a plan
 * for every unplaced piece, the agent drags a piece already turned as planned onto its spot,
 * or else taps a planned piece in the tray to turn it. If the board cannot be finished, it
 * lifts the last piece.
 */
const key = (cells: Cell[]) =>
  normalise(cells)
    .map((c) => c.join(','))
    .join(';');

export interface Placement {
  piece: number;
  cells: Cell[];
  x: number;
  y: number;
}

export function planShapes(s: Pick<ShapesVerifierState, 'cols' | 'rows' | 'outline' | 'filled' | 'pieces'>, maxNodes = 100_000): Placement[] | null {
  const { cols, rows } = s;
  const free = s.outline.map((o, i) => (o && !s.filled[i] ? 1 : 0));
  const orientations = s.pieces.map((p) => {
    const out: Cell[][] = [];
    let c = normalise(p.cells);
    for (let k = 0; k < 4; k++) {
      if (!out.some((o) => key(o) === key(c))) out.push(c);
      c = rotateCells(c);
    }
    return out;
  });
  const todo = s.pieces.map((p, i) => (p.placed ? -1 : i)).filter((i) => i >= 0);
  const used = new Set<number>();
  const plan: Placement[] = [];
  let nodes = 0;
  const go = (): boolean => {
    const first = free.indexOf(1);
    if (first < 0) return used.size === todo.length;
    if (++nodes > maxNodes) return false;
    const fx = first % cols;
    const fy = Math.floor(first / cols);
    for (const i of todo) {
      if (used.has(i)) continue;
      for (const cells of orientations[i]) {
        // The orientation's first cell (row-major) lands on the first free cell.
        const x = fx - cells[0][0];
        const y = fy - cells[0][1];
        const ok = cells.every(([cx, cy]) => {
          const bx = x + cx;
          const by = y + cy;
          return bx >= 0 && by >= 0 && bx < cols && by < rows && free[by * cols + bx] === 1;
        });
        if (!ok) continue;
        for (const [cx, cy] of cells) free[(y + cy) * cols + x + cx] = 0;
        used.add(i);
        plan.push({ piece: i, cells, x, y });
        if (go()) return true;
        plan.pop();
        used.delete(i);
        for (const [cx, cy] of cells) free[(y + cy) * cols + x + cx] = 1;
      }
    }
    return false;
  };
  return go() ? plan : null;
}

const policy: ScriptedPolicy<ShapesVerifierState> = (s) => {
  const plan = planShapes(s);
  if (!plan) return LIFT;
  const ready = plan.find((p) => key(s.pieces[p.piece].cells) === key(p.cells));
  if (ready) {
    // Dropped over this cell, the piece's middle lands there and its (0,0) on the planned spot.
    const [pw, ph] = sizeOf(ready.cells);
    return dropAction(ready.piece, ready.x + Math.floor((pw - 1) / 2), ready.y + Math.floor((ph - 1) / 2));
  }
  return FIRST_TAP + plan[0].piece;
};
export default policy;
