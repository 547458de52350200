/**
 * Pure rules of the falling-blocks game, shared by the game page and its scripted agent:
 * piece shapes, rotation with simple wall kicks, collision, dropping and line clears.
 * Boards are rows of numbers (0 = empty, 1..7 = the type index + 1 of a locked block).
 */

export const COLS = 10;
export const ROWS = 20;
export const TYPES = ['I', 'O', 'T', 'S', 'Z', 'J', 'L'] as const;
export type PieceType = (typeof TYPES)[number];

export interface Piece {
  type: PieceType;
  /** Rotation 0..3, clockwise. */
  rot: number;
  /** Column and row of the top-left corner of the piece's bounding box (row may be negative). */
  x: number;
  y: number;
}

type Cells = readonly (readonly [number, number])[];

const BASE: Record<PieceType, { n: number; cells: Cells }> = {
  I: {
    n: 4,
    cells: [
      [0, 1],
      [1, 1],
      [2, 1],
      [3, 1],
    ],
  },
  O: {
    n: 2,
    cells: [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ],
  },
  T: {
    n: 3,
    cells: [
      [1, 0],
      [0, 1],
      [1, 1],
      [2, 1],
    ],
  },
  S: {
    n: 3,
    cells: [
      [1, 0],
      [2, 0],
      [0, 1],
      [1, 1],
    ],
  },
  Z: {
    n: 3,
    cells: [
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 1],
    ],
  },
  J: {
    n: 3,
    cells: [
      [0, 0],
      [0, 1],
      [1, 1],
      [2, 1],
    ],
  },
  L: {
    n: 3,
    cells: [
      [2, 0],
      [0, 1],
      [1, 1],
      [2, 1],
    ],
  },
};

/** SHAPES[type][rot] = the four (x, y) offsets inside the bounding box. */
const SHAPES: Record<PieceType, Cells[]> = Object.fromEntries(
  TYPES.map((t) => {
    const { n, cells } = BASE[t];
    const rots: Cells[] = [cells];
    for (let r = 1; r < 4; r++) rots.push(rots[r - 1].map(([x, y]) => [n - 1 - y, x] as const));
    return [t, rots];
  }),
) as Record<PieceType, Cells[]>;

/** Offsets tried, in order, when a rotation collides: stay, left, right, up, two left, two right. */
export const KICKS: readonly (readonly [number, number])[] = [
  [0, 0],
  [-1, 0],
  [1, 0],
  [0, -1],
  [-2, 0],
  [2, 0],
];

export const LINE_POINTS = [0, 100, 300, 500, 800];
export const LINES_PER_LEVEL = 10;

export function typeIndex(t: PieceType): number {
  return TYPES.indexOf(t);
}

export function shapeOf(type: PieceType, rot: number): Cells {
  return SHAPES[type][((rot % 4) + 4) % 4];
}

/** Board cells the piece covers. */
export function pieceCells(p: Piece): [number, number][] {
  return shapeOf(p.type, p.rot).map(([x, y]) => [p.x + x, p.y + y]);
}

export function emptyBoard(): number[][] {
  return Array.from({ length: ROWS }, () => new Array<number>(COLS).fill(0));
}

/** Cells above the top row are open (a piece may poke out while it rotates near the top). */
export function fits(board: readonly (readonly number[])[], p: Piece): boolean {
  for (const [x, y] of pieceCells(p)) {
    if (x < 0 || x >= COLS || y >= ROWS) return false;
    if (y >= 0 && board[y][x] !== 0) return false;
  }
  return true;
}

export function spawnPiece(type: PieceType): Piece {
  return { type, rot: 0, x: type === 'O' ? 4 : 3, y: type === 'I' ? -1 : 0 };
}

/** Rotates by `dir` (+1 clockwise, -1 counter-clockwise) with wall kicks; null if nothing fits. */
export function rotatePiece(board: readonly (readonly number[])[], p: Piece, dir: 1 | -1): Piece | null {
  if (p.type === 'O') return p;
  const rot = (p.rot + dir + 4) % 4;
  for (const [dx, dy] of KICKS) {
    const q = { type: p.type, rot, x: p.x + dx, y: p.y + dy };
    if (fits(board, q)) return q;
  }
  return null;
}

/** The row the piece would land on if hard-dropped. */
export function dropRow(board: readonly (readonly number[])[], p: Piece): number {
  let y = p.y;
  while (fits(board, { ...p, y: y + 1 })) y++;
  return y;
}

/**
 * Writes the piece into a copy of the board and removes full rows.
 * `toppedOut` is true when part of the piece locked above the visible well.
 */
export function lockPiece(board: readonly (readonly number[])[], p: Piece): { board: number[][]; cleared: number[]; toppedOut: boolean } {
  const next = board.map((row) => row.slice());
  let toppedOut = false;
  for (const [x, y] of pieceCells(p)) {
    if (y < 0) toppedOut = true;
    else next[y][x] = typeIndex(p.type) + 1;
  }
  const cleared: number[] = [];
  for (let y = 0; y < ROWS; y++) if (next[y].every((v) => v !== 0)) cleared.push(y);
  if (cleared.length) {
    const kept = next.filter((_, y) => !cleared.includes(y));
    while (kept.length < ROWS) kept.unshift(new Array<number>(COLS).fill(0));
    return { board: kept, cleared, toppedOut };
  }
  return { board: next, cleared, toppedOut };
}

export function gravityMsForLevel(level: number): number {
  return Math.max(100, Math.round(800 * 0.85 ** (level - 1)));
}

/** Column heights (0 = empty column) and the number of holes (empty cells under a block). */
export function boardStats(board: readonly (readonly number[])[]): { heights: number[]; holes: number; bumpiness: number } {
  const heights: number[] = [];
  let holes = 0;
  for (let x = 0; x < COLS; x++) {
    let h = 0;
    for (let y = 0; y < ROWS; y++) {
      if (board[y][x] !== 0) {
        if (h === 0) h = ROWS - y;
      } else if (h > 0) holes++;
    }
    heights.push(h);
  }
  let bumpiness = 0;
  for (let x = 0; x + 1 < COLS; x++) bumpiness += Math.abs(heights[x] - heights[x + 1]);
  return { heights, holes, bumpiness };
}

/**
 * Where a placement aimed at `column` puts the leftmost block of a piece with these cells (any
 * origin: only their width counts): that column, or the nearest one the piece fits the well at.
 * The game's drop-at-column gesture, the placement decisions and their afterstates all aim there.
 */
export function placementColumn(cells: readonly (readonly [number, number])[], cols: number, column: number): number {
  const xs = cells.map(([x]) => x);
  return Math.max(0, Math.min(cols - (Math.max(...xs) - Math.min(...xs) + 1), column));
}
