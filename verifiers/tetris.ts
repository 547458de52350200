import { defineVerifier } from './define';

// The verifier imports no game code: it reads the page, and knows the shapes as a player does.
// verifiers/self-contained.test.ts checks these cells against the game's own for every piece.
const TYPES = ['I', 'O', 'T', 'S', 'Z', 'J', 'L'] as const;
type PieceType = (typeof TYPES)[number];

/** Each piece's bounding-box size and cells (x, y) at rotation 0; rotations turn them clockwise. */
const BASE: Record<PieceType, { n: number; cells: [number, number][] }> = {
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

/** Offsets a clockwise turn tries, in order, when the turned piece collides (the game's wall kicks). */
const KICKS: readonly (readonly [number, number])[] = [
  [0, 0],
  [-1, 0],
  [1, 0],
  [0, -1],
  [-2, 0],
  [2, 0],
];

/** Board cells the active piece covers. */
function pieceCells(p: { type: PieceType; rot: number; x: number; y: number }): [number, number][] {
  const { n } = BASE[p.type];
  let cells = BASE[p.type].cells;
  for (let r = ((p.rot % 4) + 4) % 4; r > 0; r--) cells = cells.map(([x, y]) => [n - 1 - y, x]);
  return cells.map(([x, y]) => [p.x + x, p.y + y]);
}

interface TetrisGlobals {
  tetris?: {
    cols: number;
    rows: number;
    board: number[][];
    piece: { type: PieceType; rot: number; x: number; y: number };
    queue: PieceType[];
    hold: PieceType | null;
    holdUsed: boolean;
    score: number;
    lines: number;
    level: number;
    pieces: number;
    gravityMs: number;
    ticks: number;
    gameOver: boolean;
  };
}

export interface TetrisVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  lines: number;
  /** Pieces spawned so far (the active one included). */
  pieces: number;
  gravityMs: number;
  cols: number;
  rows: number;
  /** Locked blocks, row 0 at the top: 0 empty, 1..7 the piece type (I O T S Z J L) + 1. */
  board: number[][];
  piece: { type: PieceType; rot: number; x: number; y: number; cells: [number, number][] };
  /** The next pieces, soonest first (three are shown on screen). */
  next: PieceType[];
  hold: PieceType | null;
  holdUsed: boolean;
  [key: string]: unknown;
}

export default defineVerifier<TetrisVerifierState>({
  gameId: 'tetris',
  read(win) {
    const s = (win as unknown as TetrisGlobals).tetris;
    if (!s) return null;
    const p = s.piece;
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      lines: s.lines,
      pieces: s.pieces,
      gravityMs: s.gravityMs,
      cols: s.cols,
      rows: s.rows,
      board: s.board.map((r) => r.slice()),
      piece: { type: p.type, rot: p.rot, x: p.x, y: p.y, cells: pieceCells(p) },
      next: s.queue.slice(0, 3),
      hold: s.hold,
      holdUsed: s.holdUsed,
    };
  },
  features: {
    names: [
      ...Array.from({ length: 200 }, (_, i) => `cell_${Math.floor(i / 10)}_${i % 10}`),
      ...Array.from({ length: 10 }, (_, i) => `height_${i}`),
      'holes',
      ...TYPES.map((t) => `piece_${t}`),
      'piece_x',
      'piece_y',
      'piece_rot',
      ...TYPES.map((t) => `next_${t}`),
      'level',
      'lines',
    ],
    encode(s) {
      const out: number[] = [];
      const active = new Set(s.piece.cells.map(([x, y]) => y * s.cols + x));
      for (let y = 0; y < 20; y++) for (let x = 0; x < 10; x++) out.push(s.board[y]?.[x] ? 1 : active.has(y * s.cols + x) ? 0.5 : 0);
      let holes = 0;
      for (let x = 0; x < 10; x++) {
        let h = 0;
        for (let y = 0; y < 20; y++) {
          if (s.board[y]?.[x]) {
            if (h === 0) h = 20 - y;
          } else if (h > 0) holes++;
        }
        out.push(h / 20);
      }
      out.push(holes / 20);
      for (const t of TYPES) out.push(s.piece.type === t ? 1 : 0);
      out.push(s.piece.x / 10, s.piece.y / 20, s.piece.rot / 4);
      for (const t of TYPES) out.push(s.next[0] === t ? 1 : 0);
      out.push(s.level, s.lines / 10);
      return out;
    },
  },
  // left, right, rotate, soft drop, hard drop, noop, then drop at columns 1 to 10: a shift or a
  // turn the well refuses (after the wall kicks, for a turn; an O never turns) leaves the piece
  // where it is, and the game ignores it; a drop always moves or locks the piece. The noop is a
  // wait, which no action that changes the game needs: masking it keeps an agent from learning
  // to stand still.
  // verifiers/self-contained.test.ts checks shifts and turns against the game's own rules.
  actionMask(s) {
    const p = s.piece;
    const fits = (q: { type: PieceType; rot: number; x: number; y: number }) =>
      pieceCells(q).every(([x, y]) => x >= 0 && x < s.cols && y < s.rows && (y < 0 || s.board[y][x] === 0));
    const turns = p.type !== 'O' && KICKS.some(([dx, dy]) => fits({ type: p.type, rot: (p.rot + 1) % 4, x: p.x + dx, y: p.y + dy }));
    return [fits({ ...p, x: p.x - 1 }) ? 1 : 0, fits({ ...p, x: p.x + 1 }) ? 1 : 0, turns ? 1 : 0, 1, 1, 0, ...Array<number>(s.cols).fill(1)];
  },
});
