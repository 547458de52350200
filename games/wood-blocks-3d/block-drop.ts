import type { MacroController, MacroPlanner } from '../../gym/core';
import type { GameManifest } from '../../gym/schema';
import { SIZE, cellForCorner, fits } from './logic';

/**
 * Block-drop decisions for the square-board block puzzles (Wood Blocks 3D): decision
 * d = size²·i + size·row + col means "drop offered piece i (0..2) with its top-left corner on
 * board cell (col, row)". It is carried out with one of the game's own preset drags, as a player
 * drags: piece i from the tray onto the cell that centres it there. A decision the board does not
 * allow (the slot is empty, or the piece does not fit there) is one wasted step: the number key
 * of the piece already selected, which changes nothing.
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

const SLOT_KEYS = ['piece-1', 'piece-2', 'piece-3'] as const;

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

/** The preset's actions a drop needs: the slot keys (a refused decision's wasted step) and, per slot, the drag onto each board cell. */
function actionsOf(manifest: GameManifest, size: number): { slotKeys: number[]; drags: number[][] } {
  const names = manifest.preset.map((p) => p.name);
  const wanted = [...SLOT_KEYS, ...[1, 2, 3].flatMap((k) => Array.from({ length: size * size }, (_, i) => dragName(k, Math.floor(i / size), i % size)))];
  const missing = wanted.filter((n) => !names.includes(n));
  if (missing.length) {
    throw new Error(
      `block-drop actions need the preset's slot keys (${SLOT_KEYS.join(', ')}) and drags named like "${dragName(1, 0, 0)}"; ${manifest.id}'s preset lacks ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`,
    );
  }
  return {
    slotKeys: SLOT_KEYS.map((k) => names.indexOf(k)),
    drags: [1, 2, 3].map((k) => Array.from({ length: size * size }, (_, i) => names.indexOf(dragName(k, Math.floor(i / size), i % size)))),
  };
}

const dragName = (piece: number, row: number, col: number) => `drop piece ${piece} at row ${row + 1} col ${col + 1}`;

class DropController implements MacroController<number> {
  private done = false;

  constructor(
    private readonly actions: { slotKeys: number[]; drags: number[][] },
    private readonly target: DropTarget,
    private readonly size: number,
  ) {}

  next(info: unknown): number | null {
    const s = dropStateOf(info);
    if (this.done || s.gameOver) return null;
    this.done = true;
    const { piece, col, row } = this.target;
    const p = s.pieces[piece];
    if (!p || !dropAllowed(s, this.target)) return this.actions.slotKeys[s.selected];
    const cell = cellForCorner(col, row, p.w, p.h);
    return this.actions.drags[piece][cell.row * this.size + cell.col];
  }
}

/** The block-drop planner for a game with Wood Blocks 3D's preset keys and verifier state. */
export function blockDropPlanner(manifest: GameManifest, size = SIZE): MacroPlanner<number> {
  const actions = actionsOf(manifest, size);
  const names: string[] = [];
  for (let i = 0; i < DROP_SLOTS; i++) for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) names.push(`piece ${i + 1} at col ${c} row ${r}`);
  return {
    numDecisions: DROP_SLOTS * size * size,
    names,
    start(decision, info) {
      const s = dropStateOf(info);
      if (s.size !== size) throw new Error(`block-drop actions were set up for a ${size}×${size} board, the game has ${s.size}×${s.size}`);
      return new DropController(actions, dropTarget(decision, size), size);
    },
  };
}
