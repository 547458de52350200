import type { MacroController, MacroPlanner } from '../../gym/core';
import type { GameManifest } from '../../gym/schema';
import { COLS, placementColumn } from './logic';

/**
 * Tetris-style placement decisions: decision d = 10·r + c means "turn the piece to rotation
 * r (0..3, clockwise from its spawn orientation) and put its leftmost block in column c
 * (0..9), then hard-drop it". It is carried out with the game's own preset actions, one per
 * step, exactly as a player would make them: rotate until the verifier state's `piece.rot` is r,
 * then the swipe down that ends over column c (the game slides the piece there, as far as the
 * stack lets it, and hard-drops it). A column the rotated piece does not fit at (its right edge
 * would leave the well) becomes the nearest one that fits (logic.ts, placementColumn); a rotation
 * of the O piece, which does not turn, is none. A rotation the board blocks (the state does not
 * change) ends that phase. The decision is over when a new piece has spawned (the drop, or
 * gravity, locked this one) or the game is over. Everything is read from the state after each
 * action, so the same state and decision always give the same actions.
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

/** The preset actions a placement makes: the turn, and the swipe down into each column. */
const dropName = (column: number) => `drop at column ${column + 1}`;

interface PlacementActions {
  rotate: number;
  /** By column, 0-based. */
  drops: number[];
}

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

/** The preset indices of the actions a placement makes, in a well of `cols` columns. */
function actionsOf(manifest: GameManifest, cols: number): PlacementActions {
  const names = manifest.preset.map((p) => p.name);
  const required = ['rotate', ...Array.from({ length: cols }, (_, c) => dropName(c))];
  const missing = required.filter((k) => !names.includes(k));
  if (missing.length) {
    throw new Error(
      `placement actions need preset actions named rotate and ${dropName(0)} … ${dropName(cols - 1)}; ${manifest.id}'s preset lacks ${missing.join(', ')}`,
    );
  }
  return { rotate: names.indexOf('rotate'), drops: Array.from({ length: cols }, (_, c) => names.indexOf(dropName(c))) };
}

class PlacementController implements MacroController<number> {
  private phase: 'rotate' | 'done' = 'rotate';
  private readonly pieces: number;
  /** The rotation before the last turn, to notice a blocked one. */
  private turnedFrom: number | null = null;

  constructor(
    private readonly actions: PlacementActions,
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
    const target = p.type === 'O' ? p.rot : this.rotation;
    if (p.rot !== target && this.turnedFrom !== p.rot) {
      this.turnedFrom = p.rot;
      return this.actions.rotate;
    }
    this.phase = 'done';
    return this.actions.drops[placementColumn(p.cells, s.cols, this.column)];
  }
}

/** The placement planner for a game with Tetris's preset actions and verifier state (a well of COLS columns). */
export function placementPlanner(manifest: GameManifest, cols = COLS): MacroPlanner<number> {
  const actions = actionsOf(manifest, cols);
  const names: string[] = [];
  for (let r = 0; r < PLACEMENT_ROTATIONS; r++) for (let c = 0; c < cols; c++) names.push(`rot ${r} col ${c}`);
  return {
    numDecisions: PLACEMENT_ROTATIONS * cols,
    names,
    start(decision, info) {
      return new PlacementController(actions, Math.floor(decision / cols), decision % cols, info);
    },
  };
}
