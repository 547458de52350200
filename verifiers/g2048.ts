import { defineVerifier } from './define';

interface G2048Globals {
  g2048?: {
    size: number;
    grid: number[][];
    score: number;
    moves: number;
    maxTile: number;
    won: boolean;
    gameOver: boolean;
    lastGain: number;
  };
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
const cellNames: string[] = [];
for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) cellNames.push(`log2_r${r}c${c}`);

export default defineVerifier<G2048VerifierState>({
  gameId: 'g2048',
  read(win) {
    const s = (win as unknown as G2048Globals).g2048;
    if (!s) return null;
    const board = s.grid.map((row) => row.slice());
    let empty = 0;
    for (const row of board) for (const v of row) if (!v) empty++;
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.maxTile > 0 ? Math.round(Math.log2(s.maxTile)) : 0,
      size: s.size,
      board,
      maxTile: s.maxTile,
      moves: s.moves,
      won: s.won,
      empty,
    };
  },
  features: {
    // Cells as log2(value)/16 (0 for empty), then the free-cell fraction and the largest tile.
    names: [...cellNames, 'empty_frac', 'max_log2'],
    encode(s) {
      const out: number[] = [];
      for (let r = 0; r < SIZE; r++)
        for (let c = 0; c < SIZE; c++) {
          const v = s.board[r]?.[c] ?? 0;
          out.push(v > 0 ? Math.log2(v) / 16 : 0);
        }
      out.push(s.empty / (SIZE * SIZE), s.level / 16);
      return out;
    },
  },
});
