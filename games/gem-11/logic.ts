import { groupAt } from '../shared/cell-groups';

/**
 * Gem-11 rules as pure functions, shared by the game, its scripted agent and its tests.
 * A board holds gem values 1..11 (0 = empty cell).
 */

export type Board = number[][];

export const ROWS = 5;
export const COLS = 5;
/** The gem everyone is after: making one scores this bonus and the gem bursts, freeing its cell. */
export const TOP_GEM = 11;
export const TOP_BONUS = 1000;
/** Equal gems that must touch (the placed one included) to merge. */
export const MERGE_SIZE = 3;

/**
 * Values incoming gems can have: the window slides up behind the best gem made so far (so an
 * 11 stays within reach) and widens from 3 to 5 values (so the board gets harder to keep tidy).
 */
export function spawnRange(bestGem: number): [number, number] {
  const hi = Math.min(8, Math.max(3, bestGem - 1));
  return [Math.max(1, hi - 4), hi];
}

/** Low gems arrive more often than high ones: value lo + k has weight (hi - lo - k + 2). */
export function randomGem(bestGem: number, rand: () => number): number {
  const [lo, hi] = spawnRange(bestGem);
  let total = 0;
  for (let v = lo; v <= hi; v++) total += hi - v + 2;
  let x = rand() * total;
  for (let v = lo; v <= hi; v++) {
    x -= hi - v + 2;
    if (x < 0) return v;
  }
  return hi;
}

/** The orthogonally connected cells holding the same value as (r, c), (r, c) first. */
export { groupAt };

export interface MergeStep {
  /** Value of the gems that merged, the cells they left, and the gem they made. */
  value: number;
  cells: [number, number][];
  made: number;
  points: number;
}

export interface PlaceResult {
  board: Board;
  merges: MergeStep[];
  gained: number;
  /** Whether the placement made an 11 (which then burst). */
  madeTop: boolean;
}

/**
 * Places gem `v` on the empty cell (r, c) and resolves chain merges there: 3+ connected equal
 * gems become one gem of value+1 on (r, c), which may merge again. Null if the cell is taken.
 * A merge of n gems of value v scores (v+1) × n × (its place in the chain).
 */
export function place(board: Board, r: number, c: number, v: number): PlaceResult | null {
  if (board[r]?.[c] !== 0) return null;
  const b = board.map((row) => row.slice());
  b[r][c] = v;
  const merges: MergeStep[] = [];
  let gained = 0;
  let madeTop = false;
  for (;;) {
    const value = b[r][c];
    const g = groupAt(b, r, c);
    if (g.length < MERGE_SIZE) break;
    for (const [y, x] of g) b[y][x] = 0;
    const made = value + 1;
    const points = made * g.length * (merges.length + 1);
    gained += points;
    merges.push({ value, cells: g, made, points });
    if (made >= TOP_GEM) {
      gained += TOP_BONUS;
      madeTop = true;
      break;
    }
    b[r][c] = made;
  }
  return { board: b, merges, gained, madeTop };
}

export function emptyCount(board: Board): number {
  let n = 0;
  for (const row of board) for (const v of row) if (!v) n++;
  return n;
}

export interface Gem11State {
  rows: number;
  cols: number;
  board: Board;
  /** The gem the next click places. */
  next: number;
  score: number;
  /** Largest gem made so far (an 11 counts though it bursts). */
  bestGem: number;
  placed: number;
  elevens: number;
  gameOver: boolean;
  lastGain: number;
}

export function newState(rand: () => number): Gem11State {
  const board = Array.from({ length: ROWS }, () => new Array<number>(COLS).fill(0));
  const s: Gem11State = { rows: ROWS, cols: COLS, board, next: 1, score: 0, bestGem: 0, placed: 0, elevens: 0, gameOver: false, lastGain: 0 };
  // A few gems to start with, none forming a group of three.
  for (let i = 0; i < 5; i++) {
    const cell = Math.floor(rand() * ROWS * COLS);
    const r = Math.floor(cell / COLS);
    const c = cell % COLS;
    const v = randomGem(0, rand);
    if (board[r][c]) continue;
    board[r][c] = v;
    if (groupAt(board, r, c).length >= MERGE_SIZE) board[r][c] = 0;
  }
  s.bestGem = Math.max(...board.flat());
  s.next = randomGem(s.bestGem, rand);
  return s;
}

/** Places the next gem on (r, c); null (nothing changes) if the cell is taken or the game is over. */
export function applyPlace(s: Gem11State, r: number, c: number, rand: () => number): PlaceResult | null {
  if (s.gameOver) return null;
  const p = place(s.board, r, c, s.next);
  if (!p) return null;
  s.board = p.board;
  s.placed++;
  s.score += p.gained;
  s.lastGain = p.gained;
  for (const m of p.merges) s.bestGem = Math.max(s.bestGem, m.made);
  s.bestGem = Math.max(s.bestGem, s.next);
  if (p.madeTop) s.elevens++;
  s.next = randomGem(s.bestGem, rand);
  if (emptyCount(s.board) === 0) s.gameOver = true;
  return p;
}
