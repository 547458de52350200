import { defineVerifier } from './define';
import { frac } from './features';
import { type ClickGrid, type LevelGlobals, type LevelState, readLevel } from './level-puzzle';
import { readGlobal } from './read-global';

/** The page's `shapes` global: the level fields, and the rest as the state reports them, but for the cursor's shape. */
type ShapesGlobals = LevelGlobals &
  Pick<ShapesVerifierState, 'cols' | 'rows' | 'outline' | 'filled' | 'pieces' | 'active' | 'board'> & { cursor: { x: number; y: number } };

export interface ShapesVerifierState extends LevelState {
  cols: number;
  rows: number;
  /** 1 where the cell belongs to the target outline, row-major. */
  outline: number[];
  /** Index+1 of the piece covering each cell, 0 if none, row-major. */
  filled: number[];
  /** Every piece: its cells in the current orientation (normalised to (0,0)), whether it is placed and where. */
  pieces: { cells: [number, number][]; placed: boolean; at: [number, number] | null }[];
  /** Index of the selected piece, -1 when all are placed. */
  active: number;
  /** Board cell where the selected piece's (0,0) hovers. */
  cursor: [number, number];
  /** Canvas position of board cell (0,0) and the cell size. */
  board: ClickGrid;
}

const N = 8;
const MAX_PIECES = 6;

export default defineVerifier<ShapesVerifierState>({
  gameId: 'shapes',
  read: readGlobal('shapes', (s: ShapesGlobals) => ({
    ...readLevel(s),
    cols: s.cols,
    rows: s.rows,
    outline: s.outline.slice(),
    filled: s.filled.slice(),
    pieces: s.pieces.map((p) => ({
      cells: p.cells.map(([x, y]) => [x, y] as [number, number]),
      placed: p.placed,
      at: p.at ? ([p.at[0], p.at[1]] as [number, number]) : null,
    })),
    active: s.active,
    cursor: [s.cursor.x, s.cursor.y],
    board: { ...s.board },
  })),
  features: {
    names: [
      ...Array.from({ length: N * N }, (_, i) => [`outline${i}`, `filled${i}`]).flat(),
      ...Array.from({ length: MAX_PIECES }, (_, k) => [
        `piece${k}_unplaced`,
        ...Array.from({ length: 25 }, (_, i) => `piece${k}_cell_${i % 5}_${Math.floor(i / 5)}`),
      ]).flat(),
      'moves_left_frac',
      'level',
    ],
    encode(s) {
      const out: number[] = [];
      for (let i = 0; i < N * N; i++) out.push(s.outline[i] ? 1 : 0, s.filled[i] ? 1 : 0);
      // Every tray piece as it would go down now (a drag drops it as it is turned).
      for (let k = 0; k < MAX_PIECES; k++) {
        const piece = s.pieces[k];
        const shape = new Array(25).fill(0);
        if (piece && !piece.placed) for (const [x, y] of piece.cells) if (x < 5 && y < 5) shape[y * 5 + x] = 1;
        out.push(piece && !piece.placed ? 1 : 0, ...shape);
      }
      out.push(frac(s.movesLeft, s.moveLimit), s.level);
      return out;
    },
  },
  // What the game ignores, entry by entry: the taps of the 6 tray slots, each slot's drops onto
  // each of the 64 board cells (slot-major, then row, then column), then the key that lifts the
  // last placed piece.
  actionMask(s) {
    const unplaced = (k: number) => !!s.pieces[k] && !s.pieces[k].placed;
    const mask: number[] = [];
    // A tap turns a tray piece and selects it: a symmetric piece already selected stays as it is.
    for (let k = 0; k < MAX_PIECES; k++) mask.push(unplaced(k) && (k !== s.active || !sameCells(turned(s.pieces[k].cells), s.pieces[k].cells)) ? 1 : 0);
    // A drop puts the piece's middle cell under the pointer (kept on the board), and the piece
    // goes down only if it fits there; otherwise it goes back to the tray, selection and all.
    for (let k = 0; k < MAX_PIECES; k++) {
      for (let y = 0; y < s.rows; y++) {
        for (let x = 0; x < s.cols; x++) mask.push(unplaced(k) && fitsAt(s, s.pieces[k].cells, aimedAt(s.pieces[k].cells, x, y, s.cols, s.rows)) ? 1 : 0);
      }
    }
    // Lifting needs a piece on the board.
    mask.push(s.pieces.some((p) => p.placed) ? 1 : 0);
    return mask;
  },
});

function fitsAt(s: ShapesVerifierState, cells: readonly [number, number][], [x, y]: [number, number]): boolean {
  return cells.every(([cx, cy]) => {
    const bx = x + cx;
    const by = y + cy;
    const i = by * s.cols + bx;
    return bx >= 0 && by >= 0 && bx < s.cols && by < s.rows && s.outline[i] === 1 && s.filled[i] === 0;
  });
}

function sizeOf(cells: readonly [number, number][]): [number, number] {
  return [Math.max(...cells.map((c) => c[0])) + 1, Math.max(...cells.map((c) => c[1])) + 1];
}

/** Where a piece dropped over board cell (x, y) goes, as the game aims it (checked in verifiers/self-contained.test.ts). */
export function aimedAt(cells: readonly [number, number][], x: number, y: number, cols: number, rows: number): [number, number] {
  const [pw, ph] = sizeOf(cells);
  return [Math.max(0, Math.min(cols - pw, x - Math.floor((pw - 1) / 2))), Math.max(0, Math.min(rows - ph, y - Math.floor((ph - 1) / 2)))];
}

/** A quarter turn clockwise, moved back to (0,0) and in row-major order, as the game turns a piece (checked in verifiers/self-contained.test.ts). */
function turned(cells: readonly [number, number][]): [number, number][] {
  const maxY = Math.max(...cells.map((c) => c[1]));
  const out = cells.map(([x, y]) => [maxY - y, x] as [number, number]);
  const mx = Math.min(...out.map((c) => c[0]));
  const my = Math.min(...out.map((c) => c[1]));
  return out.map(([x, y]) => [x - mx, y - my] as [number, number]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

function sameCells(a: readonly [number, number][], b: readonly [number, number][]): boolean {
  return a.length === b.length && a.every(([x, y], i) => b[i][0] === x && b[i][1] === y);
}
