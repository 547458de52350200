import { defineVerifier } from './define';

interface Offered {
  name: string;
  cells: [number, number][];
  w: number;
  h: number;
  color: number;
  fits: boolean;
}
interface WoodBlocksGlobals {
  woodBlocks?: {
    size: number;
    board: number[][];
    pieces: (Offered | null)[];
    selected: number;
    cursor: { col: number; row: number };
    score: number;
    level: number;
    lines: number;
    combo: number;
    moves: number;
    sets: number;
    gameOver: boolean;
  };
}

export interface WoodBlocksPiece {
  name: string;
  /** [col, row] offsets from the piece's top-left corner. */
  cells: [number, number][];
  w: number;
  h: number;
  /** Whether it fits anywhere on the current board. */
  fits: boolean;
}

export interface WoodBlocksVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  size: number;
  /** Occupancy row by row: 1 for a block, 0 for an empty cell. */
  board: number[][];
  /** The three offered slots; null once used. */
  pieces: (WoodBlocksPiece | null)[];
  /** Index of the piece the ghost shows. */
  selected: number;
  /** Board cell of the selected piece's top-left corner. */
  cursor: [number, number];
  /** Whether Enter would drop the selected piece where the ghost is. */
  canPlace: boolean;
  lines: number;
  combo: number;
  moves: number;
  sets: number;
  [key: string]: unknown;
}

const SIZE = 8;
const PIECE_GRID = 5;
const names: string[] = [];
for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) names.push(`cell_r${r}c${c}`);
for (let i = 0; i < 3; i++) for (let r = 0; r < PIECE_GRID; r++) for (let c = 0; c < PIECE_GRID; c++) names.push(`piece${i + 1}_r${r}c${c}`);
names.push('sel_1', 'sel_2', 'sel_3', 'cursor_col', 'cursor_row', 'can_place', 'fits_1', 'fits_2', 'fits_3', 'combo', 'level');

export default defineVerifier<WoodBlocksVerifierState>({
  gameId: 'wood-blocks-3d',
  read(win) {
    const s = (win as unknown as WoodBlocksGlobals).woodBlocks;
    if (!s) return null;
    const board = s.board.map((row) => row.map((v) => (v ? 1 : 0)));
    const sel = s.pieces[s.selected];
    let canPlace = !!sel && !s.gameOver;
    if (sel) {
      for (const [dc, dr] of sel.cells) {
        const c = s.cursor.col + dc;
        const r = s.cursor.row + dr;
        if (c < 0 || r < 0 || c >= SIZE || r >= SIZE || board[r][c]) canPlace = false;
      }
    }
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      size: s.size,
      board,
      pieces: s.pieces.map((p) => (p ? { name: p.name, cells: p.cells.map(([c, r]) => [c, r] as [number, number]), w: p.w, h: p.h, fits: p.fits } : null)),
      selected: s.selected,
      cursor: [s.cursor.col, s.cursor.row],
      canPlace,
      lines: s.lines,
      combo: s.combo,
      moves: s.moves,
      sets: s.sets,
    };
  },
  features: {
    names,
    encode(s) {
      const out: number[] = [];
      for (const row of s.board) for (const v of row) out.push(v);
      for (let i = 0; i < 3; i++) {
        const grid = new Array<number>(PIECE_GRID * PIECE_GRID).fill(0);
        const p = s.pieces[i];
        if (p) for (const [c, r] of p.cells) grid[r * PIECE_GRID + c] = 1;
        out.push(...grid);
      }
      for (let i = 0; i < 3; i++) out.push(s.selected === i ? 1 : 0);
      out.push(s.cursor[0] / SIZE, s.cursor[1] / SIZE, s.canPlace ? 1 : 0);
      for (let i = 0; i < 3; i++) out.push(s.pieces[i]?.fits ? 1 : 0);
      out.push(Math.min(s.combo, 10) / 10, s.level / 10);
      return out;
    },
  },
});
