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
      ...Array.from({ length: 25 }, (_, i) => `active_piece_${i % 5}_${Math.floor(i / 5)}`),
      ...Array.from({ length: MAX_PIECES }, (_, i) => `piece${i}_unplaced`),
      'cursor_x',
      'cursor_y',
      'active_index',
      'moves_left_frac',
      'level',
    ],
    encode(s) {
      const out: number[] = [];
      for (let i = 0; i < N * N; i++) out.push(s.outline[i] ? 1 : 0, s.filled[i] ? 1 : 0);
      const shape = new Array(25).fill(0);
      if (s.active >= 0) for (const [x, y] of s.pieces[s.active].cells) if (x < 5 && y < 5) shape[y * 5 + x] = 1;
      out.push(...shape);
      for (let i = 0; i < MAX_PIECES; i++) out.push(s.pieces[i] && !s.pieces[i].placed ? 1 : 0);
      out.push(s.cursor[0] / N, s.cursor[1] / N, s.active, frac(s.movesLeft, s.moveLimit), s.level);
      return out;
    },
  },
  // next piece, up, down, left, right, rotate, place, lift last piece: what the game ignores, entry by entry.
  actionMask(s) {
    const piece = s.pieces[s.active];
    if (!piece) return [1, 1, 1, 1, 1, 1, 1, 1];
    const [x, y] = s.cursor;
    const w = Math.max(...piece.cells.map((c) => c[0])) + 1;
    const h = Math.max(...piece.cells.map((c) => c[1])) + 1;
    // The cursor is kept where the piece lies on the board; a move that it clamps away does nothing.
    const moves = (v: number, d: number, size: number, board: number) => (Math.max(0, Math.min(board - size, v + d)) !== v ? 1 : 0);
    const fits = piece.cells.every(([cx, cy]) => {
      const bx = x + cx;
      const by = y + cy;
      const i = by * s.cols + bx;
      return bx >= 0 && by >= 0 && bx < s.cols && by < s.rows && s.outline[i] === 1 && s.filled[i] === 0;
    });
    return [
      // next piece: only when another piece is left in the tray.
      s.pieces.filter((p) => !p.placed).length > 1 ? 1 : 0,
      moves(y, -1, h, s.rows),
      moves(y, 1, h, s.rows),
      moves(x, -1, w, s.cols),
      moves(x, 1, w, s.cols),
      // rotate: a piece that a quarter turn maps onto itself (a square, a plus) stays as it is.
      sameCells(turned(piece.cells), piece.cells) ? 0 : 1,
      // place: a piece goes down only where each of its cells covers an empty outline cell.
      fits ? 1 : 0,
      // lift last piece: only once a piece is on the board.
      s.pieces.some((p) => p.placed) ? 1 : 0,
    ];
  },
});

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
