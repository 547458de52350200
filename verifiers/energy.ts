import { defineVerifier } from './define';

interface EnergyGlobals {
  energy?: {
    cols: number;
    rows: number;
    tiles: number[];
    source: number;
    bulbs: number[];
    powered: number[];
    region: { x: number; y: number; w: number; h: number };
    grid: { x0: number; y0: number; cell: number };
    level: number;
    score: number;
    moves: number;
    moveLimit: number;
    solvedLevels: number;
    gameOver: boolean;
  };
}

export interface EnergyVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  cols: number;
  rows: number;
  /** Wire openings per cell, row-major (N=1, E=2, S=4, W=8); 0 = empty. */
  tiles: number[];
  /** Cell index of the power source. */
  source: number;
  /** Cell indices of the bulbs. */
  bulbs: number[];
  /** 1 where current reaches the cell, row-major. */
  powered: number[];
  litBulbs: number;
  region: { x: number; y: number; w: number; h: number };
  /** Cell (x,y) is clicked at x0+cell*(x+0.5), y0+cell*(y+0.5). */
  grid: { x0: number; y0: number; cell: number };
  movesLeft: number;
  moveLimit: number;
  solvedLevels: number;
  [key: string]: unknown;
}

const GRID = 6;

export default defineVerifier<EnergyVerifierState>({
  gameId: 'energy',
  read(win) {
    const s = (win as unknown as EnergyGlobals).energy;
    if (!s) return null;
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      cols: s.cols,
      rows: s.rows,
      tiles: s.tiles.slice(),
      source: s.source,
      bulbs: s.bulbs.slice(),
      powered: s.powered.slice(),
      litBulbs: s.bulbs.filter((b) => s.powered[b]).length,
      region: { ...s.region },
      grid: { ...s.grid },
      movesLeft: s.moveLimit - s.moves,
      moveLimit: s.moveLimit,
      solvedLevels: s.solvedLevels,
    };
  },
  features: {
    names: [
      ...Array.from({ length: GRID * GRID }, (_, i) => ['N', 'E', 'S', 'W', 'powered', 'bulb', 'source'].map((f) => `cell${i}_${f}`)).flat(),
      'level',
      'moves_left_frac',
      'lit_frac',
    ],
    encode(s) {
      const out: number[] = [];
      const bulbs = new Set(s.bulbs);
      for (let i = 0; i < GRID * GRID; i++) {
        const m = s.tiles[i] ?? 0;
        for (let d = 0; d < 4; d++) out.push((m >> d) & 1);
        out.push(s.powered[i] ? 1 : 0, bulbs.has(i) ? 1 : 0, i === s.source ? 1 : 0);
      }
      out.push(s.level, s.moveLimit ? s.movesLeft / s.moveLimit : 0, s.bulbs.length ? s.litBulbs / s.bulbs.length : 0);
      return out;
    },
  },
});
