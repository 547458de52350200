import { defineVerifier } from './define';
import { readGlobal } from './read-global';

interface KeyGlobals {
  level: number;
  blocks: { horiz: boolean; len: number; line: number }[];
  pos: number[];
  selected: number;
  moves: number;
  moveLimit: number;
  optimal: number;
  score: number;
  solved: number;
  totalMoves: number;
  gameOver: boolean;
}

export interface FreeTheKeyBlock {
  /** Index of the block: 0 is the key; the others are numbered as drawn. */
  id: number;
  horiz: boolean;
  len: number;
  /** Top-left cell of the block. */
  row: number;
  col: number;
}

export interface FreeTheKeyVerifierState {
  score: number;
  gameOver: boolean;
  /** Puzzle number (1-based); puzzles get harder as they are solved. */
  level: number;
  solved: number;
  size: number;
  /** Row of the key and of the exit on the right edge. */
  exitRow: number;
  blocks: FreeTheKeyBlock[];
  /** size×size block ids, -1 for empty cells. */
  grid: number[][];
  selected: number;
  moves: number;
  moveLimit: number;
  /** Fewest slides that solve this puzzle from its start. */
  optimal: number;
  [key: string]: unknown;
}

const N = 6;

export default defineVerifier<FreeTheKeyVerifierState>({
  gameId: 'free-the-key',
  read: readGlobal('freeTheKey', (s: KeyGlobals) => {
    const grid = Array.from({ length: N }, () => new Array<number>(N).fill(-1));
    const blocks = s.blocks.map((b, id) => {
      const p = s.pos[id];
      const row = b.horiz ? b.line : p;
      const col = b.horiz ? p : b.line;
      for (let i = 0; i < b.len; i++) grid[b.horiz ? row : row + i][b.horiz ? col + i : col] = id;
      return { id, horiz: b.horiz, len: b.len, row, col };
    });
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      solved: s.solved,
      size: N,
      exitRow: 2,
      blocks,
      grid,
      selected: s.selected,
      moves: s.moves,
      moveLimit: s.moveLimit,
      optimal: s.optimal,
    };
  }),
  features: {
    // Per cell: 0 empty, 1 key, 2 horizontal block, 3 vertical block (scaled); then the
    // selected block's cells; then scalars.
    names: [
      ...Array.from({ length: N * N }, (_, i) => `cell_${Math.floor(i / N)}_${i % N}`),
      ...Array.from({ length: N * N }, (_, i) => `selected_${Math.floor(i / N)}_${i % N}`),
      'moves_left',
      'optimal',
      'level',
      'block_count',
    ],
    encode(s) {
      const cells: number[] = [];
      const sel: number[] = [];
      for (const row of s.grid) {
        for (const id of row) {
          cells.push(id < 0 ? 0 : id === 0 ? 1 / 3 : s.blocks[id].horiz ? 2 / 3 : 1);
          sel.push(id >= 0 && id === s.selected ? 1 : 0);
        }
      }
      return [...cells, ...sel, (s.moveLimit - s.moves) / 50, s.optimal / 40, s.level / 10, s.blocks.length / 13];
    },
  },
  // next, previous, up, down, left, right: selecting always moves to another block; a block
  // slides only along its own axis, one cell, into an empty cell of the board, and the game
  // ignores a slide that cannot.
  actionMask(s) {
    const b = s.blocks[s.selected];
    if (!b) return [1, 1, 1, 1, 1, 1];
    // The cell a slide moves into, off the board (undefined) or taken unless it holds -1.
    const free = (row: number, col: number) => (s.grid[row]?.[col] === -1 ? 1 : 0);
    if (b.horiz) return [1, 1, 0, 0, free(b.row, b.col - 1), free(b.row, b.col + b.len)];
    return [1, 1, free(b.row - 1, b.col), free(b.row + b.len, b.col), 0, 0];
  },
});
