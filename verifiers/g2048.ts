import { defineVerifier } from './define';
import { countEmpty, gridCells, gridNames } from './features';
import { readGlobal } from './read-global';

interface G2048Globals {
  size: number;
  grid: number[][];
  score: number;
  moves: number;
  maxTile: number;
  won: boolean;
  gameOver: boolean;
  lastGain: number;
}

export interface G2048VerifierState {
  score: number;
  gameOver: boolean;
  /** log2 of the largest tile (a 2 is level 1, a 2048 level 11). */
  level: number;
  size: number;
  /** Tile values row by row, 0 for an empty cell. */
  board: number[][];
  maxTile: number;
  moves: number;
  won: boolean;
  empty: number;
  [key: string]: unknown;
}

const SIZE = 4;
const cellNames = gridNames(SIZE, SIZE, (r, c) => `log2_r${r}c${c}`);

export default defineVerifier<G2048VerifierState>({
  gameId: 'g2048',
  read: readGlobal('g2048', (s: G2048Globals) => ({
    score: s.score,
    gameOver: s.gameOver,
    level: s.maxTile > 0 ? Math.round(Math.log2(s.maxTile)) : 0,
    size: s.size,
    board: s.grid.map((row) => row.slice()),
    maxTile: s.maxTile,
    moves: s.moves,
    won: s.won,
    empty: countEmpty(s.grid),
  })),
  features: {
    // Cells as log2(value)/16 (0 for empty), then the free-cell fraction and the largest tile.
    names: [...cellNames, 'empty_frac', 'max_log2'],
    encode(s) {
      return [...gridCells(s.board, SIZE, SIZE, (v) => (v > 0 ? Math.log2(v) / 16 : 0)), s.empty / (SIZE * SIZE), s.level / 16];
    },
  },
  // up, right, down, left: a slide that moves no tile and merges none leaves the board as it is, and the game ignores it.
  actionMask(s) {
    return DIRECTIONS.map(([dr, dc]) => (slides(s.board, dr, dc) ? 1 : 0));
  },
});

const DIRECTIONS: readonly [number, number][] = [
  [-1, 0],
  [0, 1],
  [1, 0],
  [0, -1],
];

/** Whether some tile can move towards (dr, dc): into an empty cell, or onto an equal neighbour. */
function slides(board: readonly (readonly number[])[], dr: number, dc: number): boolean {
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      const v = board[r][c];
      const nr = r + dr;
      const nc = c + dc;
      if (v === 0 || nr < 0 || nc < 0 || nr >= SIZE || nc >= SIZE) continue;
      const next = board[nr][nc];
      if (next === 0 || next === v) return true;
    }
  }
  return false;
}
