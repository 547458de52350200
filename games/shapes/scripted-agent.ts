import type { ScriptedPolicy } from '../../gym/agents';
import type { ShapesVerifierState } from '../../verifiers/shapes';
import { normalise, rotateCells, type Cell } from './cells';

/**
 * Exact cover by backtracking: the first empty outline cell (row-major) must be covered by
 * some unplaced piece in some orientation, with the piece's first cell on it. With a plan
 * for every unplaced piece, the agent turns the selected piece to its planned orientation,
 * walks it to its planned spot and places it. If the board cannot be finished, it lifts the
 * last piece. Preset: 0 next, 1 up, 2 down, 3 left, 4 right, 5 rotate, 6 place, 7 lift.
 */
const NEXT = 0,
  UP = 1,
  DOWN = 2,
  LEFT = 3,
  RIGHT = 4,
  ROTATE = 5,
  PLACE = 6,
  LIFT = 7;

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
  if (s.active < 0) return LIFT;
  const plan = planShapes(s);
  if (!plan) return LIFT;
  const mine = plan.find((p) => p.piece === s.active);
  if (!mine) return NEXT;
  if (key(s.pieces[s.active].cells) !== key(mine.cells)) return ROTATE;
  if (s.cursor[0] < mine.x) return RIGHT;
  if (s.cursor[0] > mine.x) return LEFT;
  if (s.cursor[1] < mine.y) return DOWN;
  if (s.cursor[1] > mine.y) return UP;
  return PLACE;
};
export default policy;
