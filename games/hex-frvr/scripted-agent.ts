import type { ScriptedPolicy } from '../../gym/agents';
import type { HexVerifierState } from '../../verifiers/hex-frvr';
import { CELLS, DIRS, DIR_NAMES, cellIndex, fits, fitsAnywhere, key, linePoints, place, stepCursor, type Axial, type DirName, type HexBoard } from './logic';

/**
 * Greedy hex placer: over every offered piece and anchor where it fits, score the drop by its
 * points plus a board-shape heuristic (few isolated cells, few ragged edges, the other pieces
 * still fit), then walk the ghost there along a shortest path of hex moves and drop it. The
 * target is kept while the board and pieces are unchanged.
 */

const PLACE = 9;
const MOVE_ACTION: Record<DirName, number> = { NW: 3, NE: 4, W: 5, E: 6, SW: 7, SE: 8 };
const NEIGHBOURS = Object.values(DIRS);

function shapeScore(b: HexBoard): number {
  let holes = 0;
  let edges = 0;
  CELLS.forEach(([q, r], i) => {
    let filledAround = 0;
    for (const [dq, dr] of NEIGHBOURS) {
      const j = cellIndex.get(key(q + dq, r + dr));
      const f = j === undefined || b[j] !== 0;
      if (f) filledAround++;
      if (j !== undefined && j > i && (b[j] !== 0) !== (b[i] !== 0)) edges++;
      if (j === undefined && b[i] === 0) edges += 0.5;
    }
    if (b[i] === 0 && filledAround === 6) holes++;
  });
  return -5 * holes - 0.4 * edges;
}

/** First move of a shortest path of cursor moves from `from` to `to` for this piece. */
function firstMove(p: { cells: Axial[] }, from: Axial, to: Axial): DirName | null {
  const start = key(from[0], from[1]);
  const goal = key(to[0], to[1]);
  if (start === goal) return null;
  const first = new Map<string, DirName | null>([[start, null]]);
  let frontier: Axial[] = [from];
  while (frontier.length) {
    const next: Axial[] = [];
    for (const [q, r] of frontier) {
      for (const d of DIR_NAMES) {
        const n = stepCursor(p, q, r, d);
        const k = key(n[0], n[1]);
        if (first.has(k)) continue;
        first.set(k, first.get(key(q, r)) ?? d);
        if (k === goal) return first.get(k)!;
        next.push(n);
      }
    }
    frontier = next;
  }
  return null;
}

let plan: { key: string; piece: number; q: number; r: number } | null = null;

const policy: ScriptedPolicy<HexVerifierState> = (s) => {
  if (s.gameOver) return PLACE;
  const stateKey = JSON.stringify([s.board, s.pieces]);
  if (!plan || plan.key !== stateKey) {
    let best: { value: number; piece: number; q: number; r: number } | null = null;
    s.pieces.forEach((p, i) => {
      if (!p) return;
      for (const [q, r] of CELLS) {
        if (!fits(s.board, p, q, r)) continue;
        const res = place(s.board, p, q, r, 1);
        const lines = res.lines.length;
        let value = res.cells + linePoints(lines, lines ? s.combo + 1 : 1) + shapeScore(res.board);
        for (const [j, o] of s.pieces.entries()) if (o && j !== i && !fitsAnywhere(res.board, o)) value -= 60;
        const dq = q - s.cursor[0];
        const dr = r - s.cursor[1];
        value -= 0.05 * ((Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2 + (i === s.selected ? 0 : 1));
        if (!best || value > best.value) best = { value, piece: i, q, r };
      }
    });
    if (!best) return PLACE;
    const b = best as { piece: number; q: number; r: number };
    plan = { key: stateKey, piece: b.piece, q: b.q, r: b.r };
  }
  if (s.selected !== plan.piece) return plan.piece;
  const p = s.pieces[plan.piece]!;
  const d = firstMove(p, s.cursor, [plan.q, plan.r]);
  return d ? MOVE_ACTION[d] : PLACE;
};
export default policy;
