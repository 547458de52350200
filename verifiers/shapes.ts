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
});
