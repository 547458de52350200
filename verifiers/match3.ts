import { defineVerifier } from './define';

interface Match3Globals {
  match3?: {
    size: number;
    board: number[][];
    cursor: [number, number];
    picked: [number, number] | null;
    score: number;
    level: number;
    target: number;
    levelScore: number;
    movesLeft: number;
    swaps: number;
    invalidSwaps: number;
    lastChain: number;
    shuffles: number;
    gameOver: boolean;
  };
}

export interface Match3VerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  size: number;
  /** Colour (0..5) of each candy, row 0 at the top. */
  colours: number[][];
  /** 0 plain, 1 row blaster, 2 column blaster, 3 bomb. */
  specials: number[][];
  /** [row, col] of the cursor. */
  cursor: [number, number];
  picked: [number, number] | null;
  /** Points still needed this level, and the level's totals. */
  target: number;
  levelScore: number;
  movesLeft: number;
  swaps: number;
  invalidSwaps: number;
  /** Waves in the last swap's cascade. */
  lastChain: number;
  [key: string]: unknown;
}

const SIZE = 8;

export default defineVerifier<Match3VerifierState>({
  gameId: 'match3',
  read(win) {
    const s = (win as unknown as Match3Globals).match3;
    if (!s) return null;
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      size: s.size,
      colours: s.board.map((r) => r.map((v) => (v < 0 ? -1 : v & 7))),
      specials: s.board.map((r) => r.map((v) => (v < 0 ? 0 : v >> 3))),
      cursor: [s.cursor[0], s.cursor[1]],
      picked: s.picked ? [s.picked[0], s.picked[1]] : null,
      target: s.target,
      levelScore: s.levelScore,
      movesLeft: s.movesLeft,
      swaps: s.swaps,
      invalidSwaps: s.invalidSwaps,
      lastChain: s.lastChain,
    };
  },
  features: {
    names: [
      ...Array.from({ length: SIZE * SIZE }, (_, i) => `colour_${Math.floor(i / SIZE)}_${i % SIZE}`),
      ...Array.from({ length: SIZE * SIZE }, (_, i) => `special_${Math.floor(i / SIZE)}_${i % SIZE}`),
      'cursor_row',
      'cursor_col',
      'moves_left',
      'level_progress',
      'level',
    ],
    encode(s) {
      const out: number[] = [];
      for (const row of s.colours) for (const v of row) out.push((v + 1) / 6);
      for (const row of s.specials) for (const v of row) out.push(v / 3);
      out.push(s.cursor[0] / (SIZE - 1), s.cursor[1] / (SIZE - 1), s.movesLeft / 20, s.levelScore / s.target, s.level / 10);
      return out;
    },
  },
});
