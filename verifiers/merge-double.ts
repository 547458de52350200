import { defineVerifier } from './define';
import { gridCells, gridNames } from './features';
import { readGlobal } from './read-global';

interface MergeDoubleGlobals {
  rows: number;
  cols: number;
  board: number[][];
  score: number;
  level: number;
  target: number;
  movesLeft: number;
  merges: number;
  maxLevel: number;
  gameOver: boolean;
}

export interface MergeDoubleVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  rows: number;
  cols: number;
  /** Numbers shown on the tiles, row by row (2, 4, 8, …). */
  board: number[][];
  /** The same tiles as levels: a tile showing 2^k has level k. */
  levels: number[][];
  movesLeft: number;
  /** The number this level asks for, and its level. */
  target: number;
  targetLevel: number;
  maxTile: number;
  merges: number;
  [key: string]: unknown;
}

const ROWS = 5;
const COLS = 5;
const cellNames = gridNames(ROWS, COLS, (r, c) => `level_r${r}c${c}`);

export default defineVerifier<MergeDoubleVerifierState>({
  gameId: 'merge-double',
  read: readGlobal('mergeDouble', (s: MergeDoubleGlobals) => ({
    score: s.score,
    gameOver: s.gameOver,
    level: s.level,
    rows: s.rows,
    cols: s.cols,
    board: s.board.map((row) => row.map((l) => (l > 0 ? 2 ** l : 0))),
    levels: s.board.map((row) => row.slice()),
    movesLeft: s.movesLeft,
    target: 2 ** s.target,
    targetLevel: s.target,
    maxTile: 2 ** s.maxLevel,
    merges: s.merges,
  })),
  features: {
    // Each cell's level relative to the target level, then moves left, target level and largest level.
    names: [...cellNames, 'moves_left', 'target_level', 'max_level'],
    encode(s) {
      return [...gridCells(s.levels, ROWS, COLS, (l) => l / s.targetLevel), s.movesLeft / 24, s.targetLevel / 16, Math.log2(s.maxTile) / 16];
    },
  },
  // One entry per cell, row by row: a tile merges only with an equal orthogonal neighbour; the game ignores a click on a lone one.
  actionMask: (s) => s.levels.flatMap((row, r) => row.map((v, c) => (v > 0 && hasEqualNeighbour(s.levels, r, c) ? 1 : 0))),
});

function hasEqualNeighbour(levels: readonly (readonly number[])[], r: number, c: number): boolean {
  const v = levels[r][c];
  return levels[r - 1]?.[c] === v || levels[r + 1]?.[c] === v || levels[r][c - 1] === v || levels[r][c + 1] === v;
}
