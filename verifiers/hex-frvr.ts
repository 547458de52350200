import {
  type BlockPuzzleGlobals,
  type BlockPuzzleState,
  blockPuzzleTail,
  blockPuzzleMask,
  blockPuzzleTailNames,
  type OfferedPiece,
  pieceGrids,
  readBlockPuzzle,
} from './block-puzzle';
import { defineVerifier } from './define';
import { readGlobal } from './read-global';

type Axial = [number, number];
type HexGlobals = BlockPuzzleGlobals<OfferedPiece<Axial>> & {
  radius: number;
  cells: Axial[];
  board: number[];
  cursor: Axial;
};

export interface HexPiece {
  name: string;
  /** Axial [dq, dr] offsets from the anchor; the first is [0, 0]. */
  cells: Axial[];
  fits: boolean;
}

export interface HexVerifierState extends BlockPuzzleState {
  radius: number;
  /** Axial [q, r] of every cell, in board order (rows of r from -4 to 4, q ascending). */
  cells: Axial[];
  /** Occupancy per cell, in `cells` order. */
  board: number[];
  pieces: (HexPiece | null)[];
  /** Axial cell of the selected piece's anchor. */
  cursor: Axial;
}

const CELLS = 61;
const WIN = 2; // piece offsets fall in [-2, 2] on both axes
const SPAN = 2 * WIN + 1;
const names: string[] = [];
for (let i = 0; i < CELLS; i++) names.push(`cell_${i}`);
for (let p = 0; p < 3; p++) for (let dr = -WIN; dr <= WIN; dr++) for (let dq = -WIN; dq <= WIN; dq++) names.push(`piece${p + 1}_q${dq}r${dr}`);
names.push(...blockPuzzleTailNames(['cursor_q', 'cursor_r']));

export default defineVerifier<HexVerifierState>({
  gameId: 'hex-frvr',
  read: readGlobal('hex', (s: HexGlobals) => {
    const board = s.board.map((v) => (v ? 1 : 0));
    const index = new Map(s.cells.map(([q, r], i) => [`${q},${r}`, i] as const));
    const free = ([dq, dr]: Axial) => {
      const i = index.get(`${s.cursor[0] + dq},${s.cursor[1] + dr}`);
      return i !== undefined && !board[i];
    };
    return {
      ...readBlockPuzzle(s, free),
      radius: s.radius,
      cells: s.cells.map(([q, r]) => [q, r] as Axial),
      board,
      pieces: s.pieces.map((p) => (p ? { name: p.name, cells: p.cells.map(([q, r]) => [q, r] as Axial), fits: p.fits } : null)),
      cursor: [s.cursor[0], s.cursor[1]],
    };
  }),
  features: {
    names,
    encode(s) {
      const out: number[] = s.board.slice(0, CELLS);
      while (out.length < CELLS) out.push(0);
      out.push(...pieceGrids(s.pieces, SPAN, WIN));
      out.push(...blockPuzzleTail(s, [s.cursor[0] / s.radius, s.cursor[1] / s.radius]));
      return out;
    },
  },
  // piece 1–3, the six ghost moves, place: a move that would take a cell of the selected piece
  // off the board leaves the ghost where it is, and the game ignores it. Then each slot's drags
  // onto each board cell (slot-major, cells in board order): the piece drops anchored there, or
  // at the nearest anchor that keeps it on the board, if it fits; otherwise it goes back.
  actionMask(s) {
    const [q, r] = s.cursor;
    const selected = s.pieces[s.selected]?.cells ?? [[0, 0]];
    const moves = MOVES.map(([dq, dr]) => (inside(s.radius, selected, q + dq, r + dr) ? 1 : 0));
    const index = new Map(s.cells.map(([cq, cr], i) => [`${cq},${cr}`, i] as const));
    const fits = (p: HexPiece, [aq, ar]: Axial) =>
      p.cells.every(([dq, dr]) => {
        const i = index.get(`${aq + dq},${ar + dr}`);
        return i !== undefined && !s.board[i];
      });
    const drops: number[] = [];
    for (const p of [0, 1, 2].map((k) => s.pieces[k])) {
      for (const [cq, cr] of s.cells) drops.push(p && !s.gameOver && fits(p, anchorForCell(s, p.cells, cq, cr)) ? 1 : 0);
    }
    return [...blockPuzzleMask(s, moves), ...drops];
  },
});

const inside = (radius: number, piece: Axial[], q: number, r: number) =>
  piece.every(([dq, dr]) => Math.abs(q + dq) <= radius && Math.abs(r + dr) <= radius && Math.abs(q + dq + r + dr) <= radius);

/**
 * Where the game anchors a piece held over cell (q, r): there when the piece stays on the board,
 * otherwise the nearest anchor that keeps it on (the first in board order among equals; checked
 * against the game's own rule in verifiers/self-contained.test.ts).
 */
export function anchorForCell(s: Pick<HexVerifierState, 'radius' | 'cells'>, piece: Axial[], q: number, r: number): Axial {
  if (inside(s.radius, piece, q, r)) return [q, r];
  let best: Axial = [0, 0];
  let bestD = Infinity;
  for (const [cq, cr] of s.cells) {
    if (!inside(s.radius, piece, cq, cr)) continue;
    const dq = cq - q;
    const dr = cr - r;
    const d = (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
    if (d < bestD) {
      bestD = d;
      best = [cq, cr];
    }
  }
  return best;
}

/** The preset's ghost moves as axial steps: up-left, up-right, left, right, down-left, down-right. */
const MOVES: readonly Axial[] = [
  [0, -1],
  [1, -1],
  [-1, 0],
  [1, 0],
  [-1, 1],
  [0, 1],
];
