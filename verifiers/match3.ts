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
  /** Points still needed this level, and the level's totals. */
  target: number;
  levelScore: number;
  movesLeft: number;
  swaps: number;
  /** Waves in the last swap's cascade. */
  lastChain: number;
  [key: string]: unknown;
}

const SIZE = 8;
const COLOURS = 6;

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
      target: s.target,
      levelScore: s.levelScore,
      movesLeft: s.movesLeft,
      swaps: s.swaps,
      lastChain: s.lastChain,
    };
  },
  features: {
    // Per cell, one-hot: its colour (6), then whether it is a row blaster, a column blaster or a bomb; then the level's state.
    names: [
      ...cellNames(COLOURS, (k) => `colour${k}`),
      ...cellNames(3, (k) => ['row_blaster', 'col_blaster', 'bomb'][k]),
      'moves_left',
      'level_progress',
      'level',
    ],
    encode(s) {
      const out: number[] = [];
      for (const row of s.colours) for (const v of row) for (let k = 0; k < COLOURS; k++) out.push(v === k ? 1 : 0);
      for (const row of s.specials) for (const v of row) for (let k = 1; k <= 3; k++) out.push(v === k ? 1 : 0);
      out.push(s.movesLeft / 20, s.levelScore / s.target, s.level / 10);
      return out;
    },
  },
  // The preset's 112 swaps, each cell with its right then its lower neighbour, row by row: the game undoes a swap that lines up no three.
  actionMask(s) {
    const mask: number[] = [];
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        if (c + 1 < SIZE) mask.push(swapMakesLine(s.colours, [r, c], [r, c + 1]) ? 1 : 0);
        if (r + 1 < SIZE) mask.push(swapMakesLine(s.colours, [r, c], [r + 1, c]) ? 1 : 0);
      }
    }
    return mask;
  },
});

function cellNames(per: number, name: (k: number) => string): string[] {
  const out: string[] = [];
  for (let i = 0; i < SIZE * SIZE; i++) for (let k = 0; k < per; k++) out.push(`r${Math.floor(i / SIZE)}c${i % SIZE}_${name(k)}`);
  return out;
}

/** The game's rule for a swap (logic.ts trySwap): both cells hold a candy and, swapped, some line of three or more of one colour exists. */
export function swapMakesLine(colours: readonly (readonly number[])[], a: [number, number], b: [number, number]): boolean {
  const at = (r: number, c: number) => {
    if (r === a[0] && c === a[1]) return colours[b[0]][b[1]];
    if (r === b[0] && c === b[1]) return colours[a[0]][a[1]];
    return colours[r][c];
  };
  if (at(a[0], a[1]) < 0 || at(b[0], b[1]) < 0) return false;
  // Only lines through a or b can be new: the board had none before the swap.
  for (const [r, c] of [a, b]) {
    const v = at(r, c);
    let run = 1;
    for (let k = c - 1; k >= 0 && at(r, k) === v; k--) run++;
    for (let k = c + 1; k < SIZE && at(r, k) === v; k++) run++;
    if (run >= 3) return true;
    run = 1;
    for (let k = r - 1; k >= 0 && at(k, c) === v; k--) run++;
    for (let k = r + 1; k < SIZE && at(k, c) === v; k++) run++;
    if (run >= 3) return true;
  }
  return false;
}
