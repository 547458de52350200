/**
 * Pure rules of the match-3 swapper, shared by the game page and its scripted agent.
 * A board is 8 rows of 8 cells; a cell is `colour + 8 * special` (colour 0..5; special 0 none,
 * 1 row blaster, 2 column blaster, 3 bomb) or -1 while empty. Resolving a swap clears every
 * line of 3+ of one colour, turns a line of 4 into a blaster and a line of 5 (or an L/T
 * crossing) into a bomb, fires specials caught in a clear, drops candies and refills from the
 * top, and repeats while new lines form; each wave's points are multiplied by its depth.
 */

export const SIZE = 8;
export const COLOURS = 6;
export const POINTS_PER_CANDY = 10;
export const NONE = 0,
  ROW_BLASTER = 1,
  COL_BLASTER = 2,
  BOMB = 3;

export type Board = number[][];
export type Cell = [row: number, col: number];

export const colourOf = (v: number) => (v < 0 ? -1 : v & 7);
export const specialOf = (v: number) => (v < 0 ? 0 : v >> 3);

export function cloneBoard(b: Board): Board {
  return b.map((r) => r.slice());
}

export interface Run {
  cells: Cell[];
  horiz: boolean;
}

/** Every maximal horizontal or vertical line of 3+ cells of one colour. */
export function findRuns(b: Board): Run[] {
  const runs: Run[] = [];
  for (let horiz = 1; horiz >= 0; horiz--) {
    for (let i = 0; i < SIZE; i++) {
      let start = 0;
      for (let j = 1; j <= SIZE; j++) {
        const prev = horiz ? colourOf(b[i][j - 1]) : colourOf(b[j - 1][i]);
        const cur = j < SIZE ? (horiz ? colourOf(b[i][j]) : colourOf(b[j][i])) : -2;
        if (cur === prev && cur >= 0) continue;
        if (prev >= 0 && j - start >= 3) {
          const cells: Cell[] = [];
          for (let k = start; k < j; k++) cells.push(horiz ? [i, k] : [k, i]);
          runs.push({ cells, horiz: !!horiz });
        }
        start = j;
      }
    }
  }
  return runs;
}

export function swapCells(b: Board, a: Cell, c: Cell): void {
  const t = b[a[0]][a[1]];
  b[a[0]][a[1]] = b[c[0]][c[1]];
  b[c[0]][c[1]] = t;
}

export const inBoard = (r: number, c: number) => r >= 0 && c >= 0 && r < SIZE && c < SIZE;
export const adjacent = (a: Cell, c: Cell) => Math.abs(a[0] - c[0]) + Math.abs(a[1] - c[1]) === 1;

/** One wave of a cascade, kept for the animation. */
export interface Wave {
  /** The board as the wave starts. */
  before: Board;
  /** Cells cleared by the wave (row-major flags). */
  cleared: boolean[];
  /** The board after clearing, dropping and refilling. */
  after: Board;
  /** For each cell of `after`, the row its candy fell from (negative: refilled from above). */
  fromRow: number[][];
  points: number;
  multiplier: number;
}

export interface Resolution {
  board: Board;
  waves: Wave[];
  points: number;
  candies: number;
  specialsMade: number;
}

/**
 * Clears lines until the board is still. `rand` refills the emptied cells; without it they stay
 * empty (-1), which is how the scripted agent looks ahead without guessing the refill.
 * `prefer` holds the swapped cells: a special made by the swap appears where the player moved.
 */
export function resolve(start: Board, rand: (() => number) | null, prefer: Cell[] = []): Resolution {
  let b = cloneBoard(start);
  const waves: Wave[] = [];
  let points = 0;
  let candies = 0;
  let specialsMade = 0;
  for (let depth = 1; depth <= 50; depth++) {
    const runs = findRuns(b);
    if (!runs.length) break;
    const clear = new Array<boolean>(SIZE * SIZE).fill(false);
    const inH = new Array<boolean>(SIZE * SIZE).fill(false);
    const inV = new Array<boolean>(SIZE * SIZE).fill(false);
    for (const run of runs) {
      for (const [r, c] of run.cells) {
        clear[r * SIZE + c] = true;
        (run.horiz ? inH : inV)[r * SIZE + c] = true;
      }
    }
    // Specials made by this wave: protected from this wave's clearing.
    const made = new Map<number, number>();
    for (let i = 0; i < SIZE * SIZE; i++) {
      if (inH[i] && inV[i]) made.set(i, colourOf(b[Math.floor(i / SIZE)][i % SIZE]) + 8 * BOMB);
    }
    const pick = (run: Run): number => {
      const preferred = run.cells.find(([r, c]) => depth === 1 && prefer.some(([pr, pc]) => pr === r && pc === c));
      const [r, c] = preferred ?? run.cells[Math.floor(run.cells.length / 2)];
      return r * SIZE + c;
    };
    for (const run of runs) {
      if (run.cells.some(([r, c]) => made.has(r * SIZE + c))) continue;
      if (run.cells.length >= 5) {
        const i = pick(run);
        made.set(i, colourOf(b[run.cells[0][0]][run.cells[0][1]]) + 8 * BOMB);
      } else if (run.cells.length === 4) {
        const i = pick(run);
        made.set(i, colourOf(b[run.cells[0][0]][run.cells[0][1]]) + 8 * (run.horiz ? ROW_BLASTER : COL_BLASTER));
      }
    }
    // Specials caught in the clear fire, possibly catching more specials.
    const queue: number[] = [];
    for (let i = 0; i < SIZE * SIZE; i++) if (clear[i] && specialOf(b[Math.floor(i / SIZE)][i % SIZE]) !== NONE) queue.push(i);
    const fired = new Set<number>();
    while (queue.length) {
      const i = queue.pop()!;
      if (fired.has(i)) continue;
      fired.add(i);
      const r0 = Math.floor(i / SIZE),
        c0 = i % SIZE;
      const sp = specialOf(b[r0][c0]);
      const area: number[] = [];
      if (sp === ROW_BLASTER) for (let c = 0; c < SIZE; c++) area.push(r0 * SIZE + c);
      else if (sp === COL_BLASTER) for (let r = 0; r < SIZE; r++) area.push(r * SIZE + c0);
      else if (sp === BOMB) {
        for (let r = r0 - 1; r <= r0 + 1; r++) for (let c = c0 - 1; c <= c0 + 1; c++) if (inBoard(r, c)) area.push(r * SIZE + c);
      }
      for (const j of area) {
        if (made.has(j) || clear[j] || b[Math.floor(j / SIZE)][j % SIZE] < 0) continue;
        clear[j] = true;
        if (specialOf(b[Math.floor(j / SIZE)][j % SIZE]) !== NONE) queue.push(j);
      }
    }
    for (const i of made.keys()) clear[i] = false;
    let count = 0;
    const before = cloneBoard(b);
    for (let i = 0; i < SIZE * SIZE; i++) {
      if (clear[i]) {
        b[Math.floor(i / SIZE)][i % SIZE] = -1;
        count++;
      }
    }
    for (const [i, v] of made) b[Math.floor(i / SIZE)][i % SIZE] = v;
    specialsMade += made.size;
    // Gravity and refill, column by column.
    const fromRow = Array.from({ length: SIZE }, () => new Array<number>(SIZE).fill(0));
    const after = Array.from({ length: SIZE }, () => new Array<number>(SIZE).fill(-1));
    for (let c = 0; c < SIZE; c++) {
      let write = SIZE - 1;
      for (let r = SIZE - 1; r >= 0; r--) {
        if (b[r][c] < 0) continue;
        after[write][c] = b[r][c];
        fromRow[write][c] = r;
        write--;
      }
      for (let k = 0; write >= 0; write--, k++) {
        after[write][c] = rand ? Math.floor(rand() * COLOURS) : -1;
        fromRow[write][c] = -1 - k;
      }
    }
    const wavePoints = count * POINTS_PER_CANDY * depth;
    points += wavePoints;
    candies += count;
    waves.push({ before, cleared: clear, after, fromRow, points: wavePoints, multiplier: depth });
    b = after;
  }
  return { board: b, waves, points, candies, specialsMade };
}

/** Swaps two neighbours and resolves; null when the swap makes no line (the candies swap back). */
export function trySwap(board: Board, a: Cell, c: Cell, rand: (() => number) | null): Resolution | null {
  if (!inBoard(a[0], a[1]) || !inBoard(c[0], c[1]) || !adjacent(a, c)) return null;
  if (board[a[0]][a[1]] < 0 || board[c[0]][c[1]] < 0) return null;
  const b = cloneBoard(board);
  swapCells(b, a, c);
  if (!findRuns(b).length) return null;
  return resolve(b, rand, [a, c]);
}

/** Every pair of neighbouring cells once, row by row, each cell with its right then its lower neighbour. */
export function neighbourPairs(): [Cell, Cell][] {
  const pairs: [Cell, Cell][] = [];
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      if (inBoard(r, c + 1))
        pairs.push([
          [r, c],
          [r, c + 1],
        ]);
      if (inBoard(r + 1, c))
        pairs.push([
          [r, c],
          [r + 1, c],
        ]);
    }
  }
  return pairs;
}

export function hasMove(board: Board): boolean {
  const b = cloneBoard(board);
  for (const [a, c] of neighbourPairs()) {
    swapCells(b, a, c);
    const ok = findRuns(b).length > 0;
    swapCells(b, a, c);
    if (ok) return true;
  }
  return false;
}

/** A fresh board with no lines on it and at least one possible swap. */
export function newBoard(rand: () => number): Board {
  for (;;) {
    const b: Board = Array.from({ length: SIZE }, () => new Array<number>(SIZE).fill(-1));
    for (let r = 0; r < SIZE; r++) {
      for (let c = 0; c < SIZE; c++) {
        let v: number;
        do v = Math.floor(rand() * COLOURS);
        while ((c >= 2 && b[r][c - 1] === v && b[r][c - 2] === v) || (r >= 2 && b[r - 1][c] === v && b[r - 2][c] === v));
        b[r][c] = v;
      }
    }
    if (hasMove(b)) return b;
  }
}

/** Level n: the points to earn within its move allowance. */
export function levelGoal(n: number): { target: number; moves: number } {
  return { target: 800 + 400 * (n - 1), moves: 15 };
}
