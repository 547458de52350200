import { defineVerifier } from './define';

interface LoopGlobals {
  infinityLoop?: {
    cols: number;
    rows: number;
    tiles: number[];
    region: { x: number; y: number; w: number; h: number };
    grid: { x0: number; y0: number; cell: number };
    level: number;
    score: number;
    moves: number;
    moveLimit: number;
    matchedNow: number;
    totalEdges: number;
    solvedLevels: number;
    gameOver: boolean;
  };
}

export interface InfinityLoopVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  cols: number;
  rows: number;
  /** Opening bitmask per cell, row-major (N=1, E=2, S=4, W=8); 0 = empty. */
  tiles: number[];
  region: { x: number; y: number; w: number; h: number };
  /** Canvas position of cell (0,0) and the cell size: cell (x,y) is clicked at x0+cell*(x+0.5), y0+cell*(y+0.5). */
  grid: { x0: number; y0: number; cell: number };
  movesLeft: number;
  moveLimit: number;
  matchedEdges: number;
  totalEdges: number;
  solvedLevels: number;
  [key: string]: unknown;
}

const GRID = 6;

export default defineVerifier<InfinityLoopVerifierState>({
  gameId: 'infinity-loop',
  read(win) {
    const s = (win as unknown as LoopGlobals).infinityLoop;
    if (!s) return null;
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      cols: s.cols,
      rows: s.rows,
      tiles: s.tiles.slice(),
      region: { ...s.region },
      grid: { ...s.grid },
      movesLeft: s.moveLimit - s.moves,
      moveLimit: s.moveLimit,
      matchedEdges: s.matchedNow,
      totalEdges: s.totalEdges,
      solvedLevels: s.solvedLevels,
    };
  },
  features: {
    names: [...Array.from({ length: GRID * GRID * 4 }, (_, i) => `cell${Math.floor(i / 4)}_${'NESW'[i % 4]}`), 'level', 'moves_left_frac', 'matched_frac'],
    encode(s) {
      const out: number[] = [];
      for (let i = 0; i < GRID * GRID; i++) {
        const m = s.tiles[i] ?? 0;
        for (let d = 0; d < 4; d++) out.push((m >> d) & 1);
      }
      out.push(s.level, s.moveLimit ? s.movesLeft / s.moveLimit : 0, s.totalEdges ? s.matchedEdges / s.totalEdges : 0);
      return out;
    },
  },
});
