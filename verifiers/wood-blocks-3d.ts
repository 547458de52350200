import {
  type BlockPuzzleGlobals,
  type BlockPuzzleState,
  blockPuzzleTail,
  blockPuzzleMask,
  blockPuzzleTailNames,
  type OfferedPiece,
  pieceGrids,
  readBlockPuzzle,
} from './block-puzzle';
import { defineVerifier, flattenGrid } from './define';
import { readGlobal } from './read-global';
import { gridNames } from './features';

type WoodBlocksGlobals = BlockPuzzleGlobals<OfferedPiece<[number, number]> & { w: number; h: number }> & {
  size: number;
  board: number[][];
  cursor: { col: number; row: number };
};

export interface WoodBlocksPiece {
  name: string;
  /** [col, row] offsets from the piece's top-left corner. */
  cells: [number, number][];
  w: number;
  h: number;
  /** Whether it fits anywhere on the current board. */
  fits: boolean;
}

export interface WoodBlocksVerifierState extends BlockPuzzleState {
  size: number;
  /** Occupancy row by row: 1 for a block, 0 for an empty cell. */
  board: number[][];
  /** The three offered slots; null once used. */
  pieces: (WoodBlocksPiece | null)[];
  /** Board cell of the selected piece's top-left corner. */
  cursor: [number, number];
}

const SIZE = 8;
const PIECE_GRID = 5;
const names = gridNames(SIZE, SIZE, (r, c) => `cell_r${r}c${c}`);
for (let i = 0; i < 3; i++) names.push(...gridNames(PIECE_GRID, PIECE_GRID, (r, c) => `piece${i + 1}_r${r}c${c}`));
names.push(...blockPuzzleTailNames(['cursor_col', 'cursor_row']));

export default defineVerifier<WoodBlocksVerifierState>({
  gameId: 'wood-blocks-3d',
  read: readGlobal('woodBlocks', (s: WoodBlocksGlobals) => {
    const board = s.board.map((row) => row.map((v) => (v ? 1 : 0)));
    const free = ([dc, dr]: [number, number]) => {
      const c = s.cursor.col + dc;
      const r = s.cursor.row + dr;
      return c >= 0 && r >= 0 && c < SIZE && r < SIZE && !board[r][c];
    };
    return {
      ...readBlockPuzzle(s, free),
      size: s.size,
      board,
      pieces: s.pieces.map((p) => (p ? { name: p.name, cells: p.cells.map(([c, r]) => [c, r] as [number, number]), w: p.w, h: p.h, fits: p.fits } : null)),
      cursor: [s.cursor.col, s.cursor.row],
    };
  }),
  features: {
    names,
    encode(s) {
      const out = flattenGrid(s.board, (v) => v);
      out.push(...pieceGrids(s.pieces, PIECE_GRID, 0));
      out.push(...blockPuzzleTail(s, [s.cursor[0] / SIZE, s.cursor[1] / SIZE]));
      return out;
    },
  },
  // piece 1–3, up, down, left, right, place: the ghost is kept where the selected piece lies on
  // the board, so a move it would clamp back leaves it where it is, and the game ignores it.
  // Then each slot's drags onto each board cell (slot-major, row, column): the piece drops
  // centred on that cell and kept on the board, if it fits there; otherwise it goes back.
  actionMask(s) {
    const piece = s.pieces[s.selected];
    const [col, row] = s.cursor;
    const moves = (v: number, d: number, span: number) => (Math.max(0, Math.min(SIZE - span, v + d)) !== v ? 1 : 0);
    const w = piece?.w ?? 1;
    const h = piece?.h ?? 1;
    const drops: number[] = [];
    for (let k = 0; k < 3; k++) {
      const p = s.pieces[k];
      for (let r = 0; r < SIZE; r++) {
        for (let c = 0; c < SIZE; c++) drops.push(p && !s.gameOver && fitsAt(s.board, p, cornerForCell(c, r, p.w, p.h)) ? 1 : 0);
      }
    }
    return [...blockPuzzleMask(s, [moves(row, -1, h), moves(row, 1, h), moves(col, -1, w), moves(col, 1, w)]), ...drops];
  },
});

/** Where a piece held over board cell (col, row) goes, as the game places it (checked in verifiers/self-contained.test.ts). */
export function cornerForCell(col: number, row: number, w: number, h: number): [number, number] {
  return [Math.max(0, Math.min(SIZE - w, col - Math.floor((w - 1) / 2))), Math.max(0, Math.min(SIZE - h, row - Math.floor((h - 1) / 2)))];
}

function fitsAt(board: number[][], p: WoodBlocksPiece, [col, row]: [number, number]): boolean {
  return p.cells.every(([dc, dr]) => {
    const c = col + dc;
    const r = row + dr;
    return c >= 0 && r >= 0 && c < SIZE && r < SIZE && !board[r][c];
  });
}
