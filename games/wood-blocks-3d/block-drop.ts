import type { MacroController, MacroPlanner } from '../../gym/core';
import type { GameManifest } from '../../gym/schema';
import { SIZE, fits, keepCornerInside } from './logic';

/**
 * Block-drop decisions for the square-board block puzzles (Wood Blocks 3D): decision
 * d = size²·i + size·row + col means "drop offered piece i (0..2) with its top-left corner on
 * board cell (col, row)". It is carried out with the game's own preset keys, one per step, as a
 * player would press them: the piece's number key unless it is already selected, then up/down
 * until the ghost's row is `row`, left/right until its column is `col`, then place. A decision the
 * board does not allow (the slot is empty, or the piece does not fit there) is one wasted step:
 * the number key of the piece already selected, which changes nothing. Everything is read from
 * the state after each key, so the same state and decision always give the same keys.
 */

export const DROP_SLOTS = 3;

interface DropPiece {
  cells: [number, number][];
  w: number;
  h: number;
}

export interface DropState {
  size: number;
  board: number[][];
  pieces: (DropPiece | null)[];
  selected: number;
  cursor: [number, number];
  moves: number;
  /** Consecutive drops that cleared lines (the next clear's multiplier is combo + 1). */
  combo: number;
  gameOver: boolean;
}

const REQUIRED_KEYS = ['piece-1', 'piece-2', 'piece-3', 'up', 'down', 'left', 'right', 'place'] as const;
type DropKey = (typeof REQUIRED_KEYS)[number];

export function dropStateOf(info: unknown): DropState {
  const s = (info as { state?: Partial<DropState> } | undefined)?.state;
  if (
    !s ||
    typeof s.size !== 'number' ||
    !Array.isArray(s.board) ||
    !Array.isArray(s.pieces) ||
    typeof s.selected !== 'number' ||
    !Array.isArray(s.cursor) ||
    typeof s.moves !== 'number' ||
    typeof s.combo !== 'number' ||
    typeof s.gameOver !== 'boolean'
  ) {
    throw new Error(
      'block-drop actions read info.state.{size, board, pieces, selected, cursor, moves, combo, gameOver} (the Wood Blocks 3D verifier state), and this state lacks them',
    );
  }
  return s as DropState;
}

export interface DropTarget {
  piece: number;
  col: number;
  row: number;
}

/** What decision `d` asks on a board of side `size`. */
export function dropTarget(d: number, size: number): DropTarget {
  const cells = size * size;
  return { piece: Math.floor(d / cells), row: Math.floor((d % cells) / size), col: d % size };
}

/** Whether the state allows this drop (an offered piece that fits there, by the game's own `fits`). */
export function dropAllowed(s: DropState, { piece, col, row }: DropTarget): boolean {
  const p = s.pieces[piece];
  return !s.gameOver && !!p && fits(s.board, p, col, row);
}

/**
 * Where the ghost is once piece `piece` is selected: the game keeps a selected piece inside the
 * board (keepCornerInside), so a newly selected one moves the cursor in by its size.
 */
export function cursorAfterSelect(s: DropState, piece: number): [number, number] {
  const p = s.pieces[piece];
  if (!p || piece === s.selected) return [s.cursor[0], s.cursor[1]];
  const { col, row } = keepCornerInside(s.cursor[0], s.cursor[1], p.w, p.h);
  return [col, row];
}

/**
 * The keys an allowed drop takes from state `s`: select (unless selected), moves, place. Only for
 * allowed drops (`dropAllowed`): a refused one is a single ignored key, which the callers count.
 */
export function dropKeys(s: DropState, { piece, col, row }: DropTarget): number {
  const [c, r] = cursorAfterSelect(s, piece);
  return (piece === s.selected ? 0 : 1) + Math.abs(c - col) + Math.abs(r - row) + 1;
}

function keysOf(manifest: GameManifest): Record<DropKey, number> {
  const names = manifest.preset.map((p) => p.name);
  const missing = REQUIRED_KEYS.filter((k) => !names.includes(k));
  if (missing.length) {
    throw new Error(`block-drop actions need preset actions named ${REQUIRED_KEYS.join(', ')}; ${manifest.id}'s preset lacks ${missing.join(', ')}`);
  }
  return Object.fromEntries(REQUIRED_KEYS.map((k) => [k, names.indexOf(k)])) as Record<DropKey, number>;
}

class DropController implements MacroController<number> {
  private done = false;
  private readonly moves: number;
  private readonly allowed: boolean;
  private readonly slotKeys: readonly number[];
  /** The cursor before the last move key, to notice one that did not move it. */
  private lastCursor: string | null = null;

  constructor(
    private readonly keys: Record<DropKey, number>,
    private readonly target: DropTarget,
    start: DropState,
  ) {
    this.moves = start.moves;
    this.allowed = dropAllowed(start, target);
    this.slotKeys = [keys['piece-1'], keys['piece-2'], keys['piece-3']];
  }

  next(info: unknown): number | null {
    const s = dropStateOf(info);
    if (this.done || s.gameOver || s.moves !== this.moves) return null;
    if (!this.allowed) {
      this.done = true;
      return this.slotKeys[s.selected];
    }
    const { piece, col, row } = this.target;
    if (s.selected !== piece) return this.slotKeys[piece];
    const [c, r] = s.cursor;
    const at = `${c},${r}`;
    const stuck = this.lastCursor === at;
    if (!stuck && (r !== row || c !== col)) {
      this.lastCursor = at;
      if (r > row) return this.keys.up;
      if (r < row) return this.keys.down;
      return c > col ? this.keys.left : this.keys.right;
    }
    this.done = true;
    return this.keys.place;
  }
}

/** The block-drop planner for a game with Wood Blocks 3D's preset keys and verifier state. */
export function blockDropPlanner(manifest: GameManifest, size = SIZE): MacroPlanner<number> {
  const keys = keysOf(manifest);
  const names: string[] = [];
  for (let i = 0; i < DROP_SLOTS; i++) for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) names.push(`piece ${i + 1} at col ${c} row ${r}`);
  return {
    numDecisions: DROP_SLOTS * size * size,
    names,
    start(decision, info) {
      const s = dropStateOf(info);
      if (s.size !== size) throw new Error(`block-drop actions were set up for a ${size}×${size} board, the game has ${s.size}×${s.size}`);
      return new DropController(keys, dropTarget(decision, size), s);
    },
  };
}
