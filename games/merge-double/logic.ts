import { groupAt } from '../shared/cell-groups';

/**
 * Merge-and-double rules as pure functions, shared by the game, its scripted agent and tests.
 * A board holds tile levels (level k shows the number 2^k; 0 is a hole waiting for a refill).
 */

export type Board = number[][];

export const ROWS = 5;
export const COLS = 5;
/** Merges the first level grants; reaching a target adds the next level's grant. */
export const MOVES_PER_LEVEL = 15;
/** Later levels ask for bigger tiles, so they grant more merges. */
export const movesForLevel = (level: number) => MOVES_PER_LEVEL + 4 * (level - 1);
/** The first level asks for a 32 (level 5); each later level for the next power of two. */
export const FIRST_TARGET = 5;

export const valueOf = (level: number) => 2 ** level;

/** Range of levels new tiles get, widening as the largest tile grows. */
export function spawnRange(maxLevel: number): [number, number] {
  return [Math.max(1, maxLevel - 6), Math.max(3, maxLevel - 2)];
}

/** The orthogonally connected cells holding the same value as (r, c), (r, c) first. */
export { groupAt };

/** True when some cell has an equal orthogonal neighbour. */
export function hasPair(board: Board): boolean {
  for (let r = 0; r < board.length; r++) {
    for (let c = 0; c < board[r].length; c++) {
      const v = board[r][c];
      if (!v) continue;
      if (c + 1 < board[r].length && board[r][c + 1] === v) return true;
      if (r + 1 < board.length && board[r + 1][c] === v) return true;
    }
  }
  return false;
}

export interface Fall {
  c: number;
  fromR: number;
  toR: number;
  level: number;
}

export interface MergeResult {
  board: Board;
  group: [number, number][];
  /** Level of the merged tile. */
  level: number;
  /** Where the merged tile ends after gravity. */
  at: [number, number];
  gained: number;
  /** Tiles that moved down (fromR < 0 for new tiles dropping in from above). */
  falls: Fall[];
}

/**
 * Merges the group at (r, c) into (r, c), lets tiles fall, and fills the holes from the top
 * with `spawn()` levels (pass `() => 0` to leave holes, as a planner that cannot see the
 * future does). Null when (r, c) has no equal neighbour.
 */
export function merge(board: Board, r: number, c: number, spawn: () => number): MergeResult | null {
  const group = groupAt(board, r, c);
  if (group.length < 2) return null;
  const rows = board.length;
  const cols = board[0].length;
  const level = board[r][c] + 1;
  const gained = valueOf(level - 1) * group.length;
  const cleared = board.map((row) => row.slice());
  for (const [y, x] of group) cleared[y][x] = 0;
  cleared[r][c] = level;
  const out = cleared.map((row) => row.map(() => 0));
  const falls: Fall[] = [];
  let at: [number, number] = [r, c];
  for (let x = 0; x < cols; x++) {
    let write = rows - 1;
    for (let y = rows - 1; y >= 0; y--) {
      const v = cleared[y][x];
      if (!v) continue;
      out[write][x] = v;
      if (y === r && x === c) at = [write, x];
      if (write !== y) falls.push({ c: x, fromR: y, toR: write, level: v });
      write--;
    }
    const holes = write + 1;
    for (let y = write; y >= 0; y--) {
      const v = spawn();
      out[y][x] = v;
      if (v) falls.push({ c: x, fromR: y - holes, toR: y, level: v });
    }
  }
  return { board: out, group, level, at, gained, falls };
}

export function maxLevel(board: Board): number {
  let m = 0;
  for (const row of board) for (const v of row) if (v > m) m = v;
  return m;
}

export interface MergeDoubleState {
  rows: number;
  cols: number;
  /** Tile levels; the number shown is 2^level. */
  board: Board;
  score: number;
  /** Level of play: 1 at the start, +1 for each target tile reached. */
  level: number;
  /** Tile level the current level asks for. */
  target: number;
  movesLeft: number;
  merges: number;
  maxLevel: number;
  gameOver: boolean;
  lastGain: number;
}

export function randomLevel(maxLvl: number, rand: () => number): number {
  const [lo, hi] = spawnRange(maxLvl);
  return lo + Math.floor(rand() * (hi - lo + 1));
}

export function newState(rand: () => number): MergeDoubleState {
  // Deal until the board has a pair to merge (almost always the first deal).
  let board: Board;
  do {
    board = Array.from({ length: ROWS }, () => Array.from({ length: COLS }, () => randomLevel(0, rand)));
  } while (!hasPair(board));
  return {
    rows: ROWS,
    cols: COLS,
    board,
    score: 0,
    level: 1,
    target: FIRST_TARGET,
    movesLeft: MOVES_PER_LEVEL,
    merges: 0,
    maxLevel: maxLevel(board),
    gameOver: false,
    lastGain: 0,
  };
}

/**
 * A click on (r, c): merges its group, refills with `rand`, spends a move, and moves to the
 * next level when the target tile appears. Returns null (and changes nothing) when the
 * click merges nothing.
 */
export function applyClick(s: MergeDoubleState, r: number, c: number, rand: () => number): MergeResult | null {
  if (s.gameOver) return null;
  const spawnMax = s.maxLevel;
  const m = merge(s.board, r, c, () => randomLevel(spawnMax, rand));
  if (!m) return null;
  s.board = m.board;
  s.merges++;
  s.movesLeft--;
  let gain = m.gained;
  s.maxLevel = Math.max(s.maxLevel, m.level);
  while (s.maxLevel >= s.target) {
    gain += valueOf(s.target);
    s.level++;
    s.target++;
    s.movesLeft += movesForLevel(s.level);
  }
  s.score += gain;
  s.lastGain = gain;
  if (s.movesLeft <= 0 || !hasPair(s.board)) s.gameOver = true;
  return m;
}
