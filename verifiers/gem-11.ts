import { defineVerifier } from './define';
import { countEmpty, gridCells, gridNames } from './features';
import { readGlobal } from './read-global';

/**
 * The values an incoming gem can have, as the game's rules state them (the window trails the
 * best gem made so far): the verifier imports no game code. verifiers/self-contained.test.ts
 * checks it against the game's own rule.
 */
function spawnRange(bestGem: number): [number, number] {
  const hi = Math.min(8, Math.max(3, bestGem - 1));
  return [Math.max(1, hi - 4), hi];
}

interface Gem11Globals {
  rows: number;
  cols: number;
  board: number[][];
  next: number;
  score: number;
  bestGem: number;
  placed: number;
  elevens: number;
  gameOver: boolean;
}

export interface Gem11VerifierState {
  score: number;
  gameOver: boolean;
  /** 1 while gems 1–3 arrive; +1 for each higher top value that can arrive (up to 6). */
  level: number;
  rows: number;
  cols: number;
  /** Gem values row by row, 0 for a free cell. */
  board: number[][];
  /** The gem the next click places. */
  next: number;
  /** Lowest and highest values an incoming gem can have now. */
  spawnMin: number;
  spawnMax: number;
  bestGem: number;
  placed: number;
  elevens: number;
  empty: number;
  [key: string]: unknown;
}

const ROWS = 5;
const COLS = 5;
const cellNames = gridNames(ROWS, COLS, (r, c) => `gem_r${r}c${c}`);

export default defineVerifier<Gem11VerifierState>({
  gameId: 'gem-11',
  read: readGlobal('gem11', (s: Gem11Globals) => {
    const [spawnMin, spawnMax] = spawnRange(s.bestGem);
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: spawnMax - 2,
      rows: s.rows,
      cols: s.cols,
      board: s.board.map((row) => row.slice()),
      next: s.next,
      spawnMin,
      spawnMax,
      bestGem: s.bestGem,
      placed: s.placed,
      elevens: s.elevens,
      empty: countEmpty(s.board),
    };
  }),
  features: {
    // Gems as value/11 (0 for free), then the incoming gem, the free fraction and the best gem.
    names: [...cellNames, 'next', 'empty_frac', 'best_gem'],
    encode(s) {
      return [...gridCells(s.board, ROWS, COLS, (v) => v / 11), s.next / 11, s.empty / (ROWS * COLS), s.bestGem / 11];
    },
  },
  // One entry per cell, row by row: a gem goes only on a free cell; the game ignores a click on a taken one.
  actionMask: (s) => s.board.flatMap((row) => row.map((v) => (v === 0 ? 1 : 0))),
});
