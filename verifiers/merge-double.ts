import { defineVerifier } from './define';

interface MergeDoubleGlobals {
  mergeDouble?: {
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
  };
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
const cellNames: string[] = [];
for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) cellNames.push(`level_r${r}c${c}`);

export default defineVerifier<MergeDoubleVerifierState>({
  gameId: 'merge-double',
  read(win) {
    const s = (win as unknown as MergeDoubleGlobals).mergeDouble;
    if (!s) return null;
    return {
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
    };
  },
  features: {
    // Each cell's level relative to the target level, then moves left, target level and largest level.
    names: [...cellNames, 'moves_left', 'target_level', 'max_level'],
    encode(s) {
      const out: number[] = [];
      for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) out.push((s.levels[r]?.[c] ?? 0) / s.targetLevel);
      out.push(s.movesLeft / 24, s.targetLevel / 16, Math.log2(s.maxTile) / 16);
      return out;
    },
  },
});
