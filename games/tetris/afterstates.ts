import type { DecisionFeatures } from '../../gym/core';
import { COLS, ROWS, TYPES, boardStats, dropRow, fits, lockPiece, pieceCells, placementColumn, rotatePiece, type Piece, type PieceType } from './logic';
import { PLACEMENT_ROTATIONS } from './placement';

/**
 * What each placement decision would leave behind (its afterstate), as features: the board
 * after turning the piece to rotation r, sliding its leftmost block to column c, hard-dropping
 * and clearing full rows, simulated from the verifier state with the game's own rules (logic.ts:
 * rotation with its kicks, collision, locking and line clears). This is what the scripted agent
 * scores, and what lets a policy score all 40 decisions with one shared function (the 'scorer'
 * network) instead of learning 40 unrelated outputs from raw cells.
 *
 * The simulation follows the controller in placement.ts (one turn per step, then the drop at the
 * column, which slides the piece one column at a time and stops where the board blocks) but
 * ignores gravity between turns, so it can be a row off for a piece that falls while it turns:
 * the features are what the policy sees, the game decides what happens.
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

interface AfterstateInput {
  cols: number;
  rows: number;
  board: number[][];
  gameOver: boolean;
  piece: { type: PieceType; rot: number; x: number; y: number };
}

function inputOf(info: unknown): AfterstateInput | null {
  const s = (info as { state?: Partial<AfterstateInput> } | undefined)?.state;
  const p = s?.piece;
  if (!s || typeof s.cols !== 'number' || typeof s.rows !== 'number' || !Array.isArray(s.board) || !p || !TYPES.includes(p.type)) {
    throw new Error('placement afterstates read info.state.{cols, rows, board, piece} (the Tetris verifier state), and this state lacks them');
  }
  if (s.cols !== COLS || s.rows !== ROWS) throw new Error(`placement afterstates are for a ${COLS}×${ROWS} well, the state has ${s.cols}×${s.rows}`);
  return s.gameOver ? null : (s as AfterstateInput);
}

/** Turns the piece to `rotation` as the controller's rotate keys would, one clockwise turn per key (a blocked turn ends the turning). */
function turn(board: readonly (readonly number[])[], start: Piece, rotation: number): Piece {
  let p = start;
  for (let turns = (rotation - start.rot + 4) % 4; turns > 0; turns--) {
    const q = rotatePiece(board, p, 1);
    if (!q) break;
    p = q;
  }
  return p;
}

/** Slides a turned piece toward decision column `column` one column per key (stopping where the board blocks), then hard-drops it. */
function slideAndDrop(board: readonly (readonly number[])[], turned: Piece, column: number): Piece {
  let p = turned;
  const target = placementColumn(pieceCells(p), COLS, column);
  for (let x = Math.min(...pieceCells(p).map(([cx]) => cx)); x !== target; ) {
    const dir = x < target ? 1 : -1;
    const moved = { ...p, x: p.x + dir };
    if (!fits(board, moved)) break;
    p = moved;
    x += dir;
  }
  return { ...p, y: dropRow(board, p) };
}

/** The features of the board `p` locks into (AFTERSTATE_FEATURES order) written at out[offset…]. */
function writeFeatures(board: readonly (readonly number[])[], p: Piece, out: Float32Array, offset: number): void {
  const cells = pieceCells(p);
  const landing = cells.reduce((sum, [, y]) => sum + ROWS - y, 0);
  const locked = lockPiece(board, p);
  const { heights, holes, bumpiness } = boardStats(locked.board);
  let wells = 0;
  for (let x = 0; x < COLS; x++) {
    const walls = Math.min(x > 0 ? heights[x - 1] : ROWS, x + 1 < COLS ? heights[x + 1] : ROWS);
    if (walls > heights[x]) wells += walls - heights[x];
  }
  const raw: Record<AfterstateFeature, number> = {
    lines_cleared: locked.cleared.length,
    landing_height: landing / cells.length,
    aggregate_height: heights.reduce((a, h) => a + h, 0),
    holes,
    bumpiness,
    max_height: Math.max(...heights),
    wells,
    topped_out: locked.toppedOut ? 1 : 0,
  };
  AFTERSTATE_FEATURES.forEach((f, i) => {
    out[offset + i] = raw[f] / AFTERSTATE_SCALE[f];
  });
}

/**
 * Afterstate features of every placement decision (decision d = 10·r + c, as in placement.ts):
 * [decisions × AFTERSTATE_FEATURES] row-major. At game over (no piece to place) every feature is 0.
 */
export function placementAfterstates(): DecisionFeatures {
  const perDecision = AFTERSTATE_FEATURES.length;
  const numDecisions = PLACEMENT_ROTATIONS * COLS;
  return {
    perDecision,
    names: AFTERSTATE_FEATURES,
    encode(info) {
      const out = new Float32Array(numDecisions * perDecision);
      const s = inputOf(info);
      if (!s) return out;
      const { type, rot, x, y } = s.piece;
      const start: Piece = { type, rot, x, y };
      for (let r = 0; r < PLACEMENT_ROTATIONS; r++) {
        // The turn does not depend on the column: once per rotation, then each column from it.
        const turned = turn(s.board, start, r);
        for (let c = 0; c < COLS; c++) writeFeatures(s.board, slideAndDrop(s.board, turned, c), out, (r * COLS + c) * perDecision);
      }
      return out;
    },
  };
}
