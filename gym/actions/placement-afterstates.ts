import type { DecisionFeatures } from '../core/wrappers/macro-action';
import { stackFeatures } from '../core/wrappers/reward-shaping';
import { PLACEMENT_ROTATIONS, placementColumn } from './placement';

/**
 * What each placement decision would leave behind (its afterstate), as features: the board
 * after turning the piece to rotation r, sliding its leftmost block to column c, hard-dropping
 * and clearing full rows, simulated from the verifier state alone. This is what the scripted
 * agent scores, and what lets a policy score all 40 decisions with one shared function
 * (the 'scorer' network) instead of learning 40 unrelated outputs from raw cells.
 *
 * The simulation follows the controller in placement.ts key by key (rotations with the game's
 * kicks, one column per key, stopping where the board blocks) but ignores gravity between keys,
 * so it can be a row off for a piece that falls while it slides: the features are what the
 * policy sees, the game decides what happens.
 */

/** Feature names, one block of these per decision. */
export const AFTERSTATE_FEATURES = ['lines_cleared', 'landing_height', 'aggregate_height', 'holes', 'bumpiness', 'max_height', 'wells', 'topped_out'] as const;
export type AfterstateFeature = (typeof AFTERSTATE_FEATURES)[number];

/**
 * Each feature is its raw count divided by this: a unit is a difference that matters (a line,
 * a hole, about two rows), so the 40 rows differ by O(1) and a fresh network's scores spread
 * from the first update; on [0, 1] they differed by a tenth and the policy took tens of
 * updates to leave uniform.
 */
export const AFTERSTATE_SCALE: Record<AfterstateFeature, number> = {
  lines_cleared: 1,
  landing_height: 4,
  aggregate_height: 20,
  holes: 2,
  bumpiness: 4,
  max_height: 4,
  wells: 4,
  topped_out: 1,
};

/** Offsets a rotation tries when it collides, in the game's order (a player learns them by playing). */
const KICKS: readonly (readonly [number, number])[] = [
  [0, 0],
  [-1, 0],
  [1, 0],
  [0, -1],
  [-2, 0],
  [2, 0],
];

/** Side of the square box a piece turns in. */
const BOX: Record<string, number> = { I: 4, O: 2 };

interface Piece {
  /** Cells relative to the box origin. */
  cells: [number, number][];
  x: number;
  y: number;
  rot: number;
}

interface AfterstateInput {
  cols: number;
  rows: number;
  board: number[][];
  gameOver: boolean;
  piece: { type: string; rot: number; x: number; y: number; cells: [number, number][] };
}

function inputOf(info: unknown): AfterstateInput | null {
  const s = (info as { state?: Partial<AfterstateInput> } | undefined)?.state;
  const p = s?.piece;
  if (!s || typeof s.cols !== 'number' || typeof s.rows !== 'number' || !Array.isArray(s.board) || !p || !Array.isArray(p.cells)) {
    throw new Error('placement afterstates read info.state.{cols, rows, board, piece} (the Tetris verifier state), and this state lacks them');
  }
  return s.gameOver ? null : (s as AfterstateInput);
}

class Board {
  constructor(
    readonly cells: number[][],
    readonly cols: number,
    readonly rows: number,
  ) {}

  /** Cells above the top row are open, as in the game (a piece may poke out while it turns). */
  fits(p: Piece): boolean {
    for (const [cx, cy] of p.cells) {
      const x = p.x + cx;
      const y = p.y + cy;
      if (x < 0 || x >= this.cols || y >= this.rows) return false;
      if (y >= 0 && this.cells[y][x] !== 0) return false;
    }
    return true;
  }
}

function turnClockwise(p: Piece, n: number): [number, number][] {
  return p.cells.map(([x, y]) => [n - 1 - y, x]);
}

/** Turns the piece to `rotation` as the controller's rotate keys would (kicks included; a blocked turn ends the turning). */
function rotate(board: Board, start: Piece, type: string, rotation: number): Piece {
  if (type === 'O') return start;
  const n = BOX[type] ?? 3;
  let p = start;
  for (let turns = (rotation - start.rot + 4) % 4; turns > 0; turns--) {
    const cells = turnClockwise(p, n);
    const kicked = KICKS.map(([dx, dy]) => ({ cells, x: p.x + dx, y: p.y + dy, rot: (p.rot + 1) % 4 })).find((q) => board.fits(q));
    if (!kicked) break;
    p = kicked;
  }
  return p;
}

/** Slides a turned piece toward decision column `column` one column per key (stopping where the board blocks), then hard-drops it. */
function slideAndDrop(board: Board, turned: Piece, column: number): Piece {
  let p = turned;
  const target = placementColumn(p.cells, board.cols, column);
  for (let x = Math.min(...p.cells.map(([cx]) => cx)) + p.x; x !== target; ) {
    const dir = x < target ? 1 : -1;
    const moved = { ...p, x: p.x + dir };
    if (!board.fits(moved)) break;
    p = moved;
    x += dir;
  }
  while (board.fits({ ...p, y: p.y + 1 })) p = { ...p, y: p.y + 1 };
  return p;
}

/** The features of the board `p` locks into (AFTERSTATE_FEATURES order) written at out[offset…]. */
function writeFeatures(board: Board, p: Piece, out: Float32Array, offset: number): void {
  const { cols, rows } = board;
  const next = board.cells.map((r) => r.slice());
  let toppedOut = false;
  let landing = 0;
  for (const [cx, cy] of p.cells) {
    const y = p.y + cy;
    landing += rows - y;
    if (y < 0) toppedOut = true;
    else next[y][p.x + cx] = 1;
  }
  const kept = next.filter((r) => !r.every((v) => v !== 0));
  const cleared = rows - kept.length;
  while (kept.length < rows) kept.unshift(new Array<number>(cols).fill(0));
  const { heights, holes, aggregateHeight, bumpiness } = stackFeatures(kept);
  let wells = 0;
  for (let x = 0; x < cols; x++) {
    const walls = Math.min(x > 0 ? heights[x - 1] : rows, x + 1 < cols ? heights[x + 1] : rows);
    if (walls > heights[x]) wells += walls - heights[x];
  }
  const raw: Record<AfterstateFeature, number> = {
    lines_cleared: cleared,
    landing_height: landing / p.cells.length,
    aggregate_height: aggregateHeight,
    holes,
    bumpiness,
    max_height: Math.max(...heights),
    wells,
    topped_out: toppedOut ? 1 : 0,
  };
  AFTERSTATE_FEATURES.forEach((f, i) => {
    out[offset + i] = raw[f] / AFTERSTATE_SCALE[f];
  });
}

/**
 * Afterstate features of every placement decision (decision d = 10·r + c, as in placement.ts):
 * [decisions × AFTERSTATE_FEATURES] row-major. At game over (no piece to place) every feature is 0.
 */
export function placementAfterstates(cols = 10): DecisionFeatures {
  const perDecision = AFTERSTATE_FEATURES.length;
  const numDecisions = PLACEMENT_ROTATIONS * cols;
  return {
    perDecision,
    names: AFTERSTATE_FEATURES,
    encode(info) {
      const out = new Float32Array(numDecisions * perDecision);
      const s = inputOf(info);
      if (!s) return out;
      if (s.cols !== cols) throw new Error(`placement afterstates were set up for ${cols} columns, the game has ${s.cols}`);
      const board = new Board(s.board, s.cols, s.rows);
      const { piece } = s;
      const start: Piece = { cells: piece.cells.map(([x, y]) => [x - piece.x, y - piece.y]), x: piece.x, y: piece.y, rot: piece.rot };
      for (let r = 0; r < PLACEMENT_ROTATIONS; r++) {
        // The turn does not depend on the column: once per rotation, then each column from it.
        const turned = rotate(board, start, piece.type, r);
        for (let c = 0; c < cols; c++) writeFeatures(board, slideAndDrop(board, turned, c), out, (r * cols + c) * perDecision);
      }
      return out;
    },
  };
}
