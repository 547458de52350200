import type { MacroController, MacroPlanner } from '../../gym/core';
import type { GameManifest } from '../../gym/schema';
import { COLS } from './logic';

/**
 * Tetris-style placement decisions: decision d = 10·r + c means "turn the piece to rotation
 * r (0..3, clockwise from its spawn orientation) and put its leftmost block in column c
 * (0..9), then hard-drop it". It is carried out with the game's own preset keys, one per step,
 * exactly as a player would press them: rotate until the verifier state's `piece.rot` is r,
 * left/right until the leftmost of `piece.cells` is at c, hard drop. A column the rotated piece
 * does not fit at (its right edge would leave the well) becomes the nearest one that fits; a
 * rotation of the O piece, which does not turn, is none. A rotation or a move the board blocks
 * (the state does not change) ends that phase, and the piece is dropped where it is. The
 * decision is over when a new piece has spawned (the hard drop, or gravity, locked this one) or
 * the game is over. Everything is read from the state after each key, so the same state and
 * decision always give the same keys.
 */

export const PLACEMENT_ROTATIONS = 4;

interface PieceState {
  type: string;
  rot: number;
  x: number;
  y: number;
  cells: [number, number][];
}

interface PlacementState {
  cols: number;
  pieces: number;
  gameOver: boolean;
  piece: PieceState;
}

const REQUIRED_KEYS = ['left', 'right', 'rotate', 'hard drop'] as const;

function stateOf(info: unknown): PlacementState {
  const s = (info as { state?: Partial<PlacementState> } | undefined)?.state;
  const p = s?.piece;
  if (
    !s ||
    typeof s.cols !== 'number' ||
    typeof s.pieces !== 'number' ||
    typeof s.gameOver !== 'boolean' ||
    !p ||
    typeof p.rot !== 'number' ||
    !Array.isArray(p.cells) ||
    p.cells.length === 0
  ) {
    throw new Error(
      'placement actions read info.state.{cols, pieces, gameOver, piece: {type, rot, cells}} (the Tetris verifier state), and this state lacks them',
    );
  }
  return s as PlacementState;
}

function leftmost(p: PieceState): number {
  return Math.min(...p.cells.map(([x]) => x));
}

/**
 * Where decision column `column` puts the leftmost block of a piece with these cells (any
 * origin: only their width counts): that column, or the nearest one the piece fits in.
 * The controller aims there, and the afterstate simulation (afterstates.ts) with it.
 */
export function placementColumn(cells: readonly (readonly [number, number])[], cols: number, column: number): number {
  const xs = cells.map(([x]) => x);
  return Math.max(0, Math.min(cols - (Math.max(...xs) - Math.min(...xs) + 1), column));
}

/** The preset indices of the keys a placement presses. */
function keysOf(manifest: GameManifest): Record<(typeof REQUIRED_KEYS)[number], number> {
  const names = manifest.preset.map((p) => p.name);
  const missing = REQUIRED_KEYS.filter((k) => !names.includes(k));
  if (missing.length) {
    throw new Error(`placement actions need preset actions named ${REQUIRED_KEYS.join(', ')}; ${manifest.id}'s preset lacks ${missing.join(', ')}`);
  }
  return Object.fromEntries(REQUIRED_KEYS.map((k) => [k, names.indexOf(k)])) as Record<(typeof REQUIRED_KEYS)[number], number>;
}

class PlacementController implements MacroController<number> {
  private phase: 'rotate' | 'move' | 'drop' | 'done' = 'rotate';
  private readonly pieces: number;
  /** What the last key was and the value it should have changed, to notice a blocked one. */
  private pressed: { phase: 'rotate' | 'move'; before: number } | null = null;

  constructor(
    private readonly keys: Record<(typeof REQUIRED_KEYS)[number], number>,
    private readonly rotation: number,
    private readonly column: number,
    info: unknown,
  ) {
    this.pieces = stateOf(info).pieces;
  }

  next(info: unknown): number | null {
    const s = stateOf(info);
    if (s.gameOver || s.pieces !== this.pieces || this.phase === 'done') return null;
    const p = s.piece;
    if (this.phase === 'rotate') {
      const target = p.type === 'O' ? p.rot : this.rotation;
      const blocked = this.pressed?.phase === 'rotate' && this.pressed.before === p.rot;
      if (p.rot !== target && !blocked) {
        this.pressed = { phase: 'rotate', before: p.rot };
        return this.keys.rotate;
      }
      this.phase = 'move';
      this.pressed = null;
    }
    if (this.phase === 'move') {
      const x = leftmost(p);
      const target = placementColumn(p.cells, s.cols, this.column);
      const blocked = this.pressed?.phase === 'move' && this.pressed.before === x;
      if (x !== target && !blocked) {
        this.pressed = { phase: 'move', before: x };
        return x < target ? this.keys.right : this.keys.left;
      }
      this.phase = 'drop';
    }
    this.phase = 'done';
    return this.keys['hard drop'];
  }
}

/** The placement planner for a game with Tetris's preset keys and verifier state (a well of COLS columns). */
export function placementPlanner(manifest: GameManifest, cols = COLS): MacroPlanner<number> {
  const keys = keysOf(manifest);
  const names: string[] = [];
  for (let r = 0; r < PLACEMENT_ROTATIONS; r++) for (let c = 0; c < cols; c++) names.push(`rot ${r} col ${c}`);
  return {
    numDecisions: PLACEMENT_ROTATIONS * cols,
    names,
    start(decision, info) {
      return new PlacementController(keys, Math.floor(decision / cols), decision % cols, info);
    },
  };
}
