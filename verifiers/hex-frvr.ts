import { defineVerifier } from './define';

type Axial = [number, number];
interface Offered {
  name: string;
  cells: Axial[];
  color: number;
  fits: boolean;
}
interface HexGlobals {
  hex?: {
    radius: number;
    cells: Axial[];
    board: number[];
    pieces: (Offered | null)[];
    selected: number;
    cursor: Axial;
    score: number;
    level: number;
    lines: number;
    combo: number;
    moves: number;
    sets: number;
    gameOver: boolean;
  };
}

export interface HexPiece {
  name: string;
  /** Axial [dq, dr] offsets from the anchor; the first is [0, 0]. */
  cells: Axial[];
  fits: boolean;
}

export interface HexVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  radius: number;
  /** Axial [q, r] of every cell, in board order (rows of r from -4 to 4, q ascending). */
  cells: Axial[];
  /** Occupancy per cell, in `cells` order. */
  board: number[];
  pieces: (HexPiece | null)[];
  selected: number;
  /** Axial cell of the selected piece's anchor. */
  cursor: Axial;
  canPlace: boolean;
  lines: number;
  combo: number;
  moves: number;
  sets: number;
  [key: string]: unknown;
}

const CELLS = 61;
const WIN = 2; // piece offsets fall in [-2, 2] on both axes
const SPAN = 2 * WIN + 1;
const names: string[] = [];
for (let i = 0; i < CELLS; i++) names.push(`cell_${i}`);
for (let p = 0; p < 3; p++) for (let dr = -WIN; dr <= WIN; dr++) for (let dq = -WIN; dq <= WIN; dq++) names.push(`piece${p + 1}_q${dq}r${dr}`);
names.push('sel_1', 'sel_2', 'sel_3', 'cursor_q', 'cursor_r', 'can_place', 'fits_1', 'fits_2', 'fits_3', 'combo', 'level');

export default defineVerifier<HexVerifierState>({
  gameId: 'hex-frvr',
  read(win) {
    const s = (win as unknown as HexGlobals).hex;
    if (!s) return null;
    const board = s.board.map((v) => (v ? 1 : 0));
    const index = new Map(s.cells.map(([q, r], i) => [`${q},${r}`, i] as const));
    const sel = s.pieces[s.selected];
    let canPlace = !!sel && !s.gameOver;
    if (sel) {
      for (const [dq, dr] of sel.cells) {
        const i = index.get(`${s.cursor[0] + dq},${s.cursor[1] + dr}`);
        if (i === undefined || board[i]) canPlace = false;
      }
    }
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      radius: s.radius,
      cells: s.cells.map(([q, r]) => [q, r] as Axial),
      board,
      pieces: s.pieces.map((p) => (p ? { name: p.name, cells: p.cells.map(([q, r]) => [q, r] as Axial), fits: p.fits } : null)),
      selected: s.selected,
      cursor: [s.cursor[0], s.cursor[1]],
      canPlace,
      lines: s.lines,
      combo: s.combo,
      moves: s.moves,
      sets: s.sets,
    };
  },
  features: {
    names,
    encode(s) {
      const out: number[] = s.board.slice(0, CELLS);
      while (out.length < CELLS) out.push(0);
      for (let i = 0; i < 3; i++) {
        const grid = new Array<number>(SPAN * SPAN).fill(0);
        const p = s.pieces[i];
        if (p) for (const [dq, dr] of p.cells) if (Math.abs(dq) <= WIN && Math.abs(dr) <= WIN) grid[(dr + WIN) * SPAN + dq + WIN] = 1;
        out.push(...grid);
      }
      for (let i = 0; i < 3; i++) out.push(s.selected === i ? 1 : 0);
      out.push(s.cursor[0] / s.radius, s.cursor[1] / s.radius, s.canPlace ? 1 : 0);
      for (let i = 0; i < 3; i++) out.push(s.pieces[i]?.fits ? 1 : 0);
      out.push(Math.min(s.combo, 10) / 10, s.level / 10);
      return out;
    },
  },
});
