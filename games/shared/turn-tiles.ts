import { DX, DY } from './grid-board';
import type { Redraw } from './level-puzzle';

/**
 * Tiles with openings on their four sides, as bitmasks N=1, E=2, S=4, W=8, that the player
 * turns a quarter at a time (energy, infinity-loop): the rules, the solver their scripted agents
 * use, and the swing of a turned tile.
 */

/** A quarter turn clockwise. */
export const rot = (m: number) => ((m << 1) | (m >> 3)) & 15;
export const popcount = (m: number) => (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);

/** Quarter turns that take `from` to `to`, which must be one of its turns. */
export function rotationsBetween(from: number, to: number): number {
  let m = from;
  for (let k = 0; k < 4; k++) {
    if (m === to) return k;
    m = rot(m);
  }
  throw new Error(`tile ${to} is not a turn of ${from}`);
}

/** Turns every tile a random 0–3 quarters, in place. */
export function scramble(tiles: number[]): void {
  for (let i = 0; i < tiles.length; i++) {
    const k = Math.floor(Math.random() * 4);
    for (let j = 0; j < k; j++) tiles[i] = rot(tiles[i]);
  }
}

/** The cell beyond side d of cell i on a cols × rows board, or -1 off the board. */
function across(i: number, d: number, cols: number, rows: number): number {
  const nx = (i % cols) + DX[d];
  const ny = Math.floor(i / cols) + DY[d];
  return nx < 0 || ny < 0 || nx >= cols || ny >= rows ? -1 : ny * cols + nx;
}

/** Whether tile i has an opening that leads off the board or to a neighbour without the matching opening. */
export function hasLooseEnd(tiles: readonly number[], cols: number, rows: number, i: number): boolean {
  for (let d = 0; d < 4; d++) {
    if (!(tiles[i] & (1 << d))) continue;
    const j = across(i, d, cols, rows);
    if (j < 0 || !(tiles[j] & (1 << ((d + 2) % 4)))) return true;
  }
  return false;
}

/** 1 for every cell current reaches from `from` through openings that meet, 0 elsewhere (row-major). */
export function reachable(tiles: readonly number[], cols: number, rows: number, from: number): number[] {
  const on = new Array(cols * rows).fill(0);
  on[from] = 1;
  const stack = [from];
  while (stack.length) {
    const i = stack.pop()!;
    for (let d = 0; d < 4; d++) {
      if (!(tiles[i] & (1 << d))) continue;
      const j = across(i, d, cols, rows);
      if (j < 0 || on[j] || !(tiles[j] & (1 << ((d + 2) % 4)))) continue;
      on[j] = 1;
      stack.push(j);
    }
  }
  return on;
}

export interface SolveTurnsOptions {
  /** Accepts or rejects a whole board whose openings all meet (default: accept). */
  complete?: (sol: readonly number[]) => boolean;
  /** Also prune a tile that leaves the opening of a neighbouring cross (15, which no turn changes) unmet. */
  pruneAtCrosses?: boolean;
  /** Search nodes before giving up. */
  maxNodes?: number;
}

/**
 * A turn of every tile in which all openings meet, by row-major backtracking: each tile's
 * openings must agree with the tiles above and to its left and never point off the board or
 * into an empty cell, and its distinct turns are tried cheapest first. Deterministic, so an
 * agent calling it on successive steps aims at one solution. Null if none is found in budget.
 */
export function solveTurns(cols: number, rows: number, tiles: readonly number[], opts: SolveTurnsOptions = {}): number[] | null {
  const { complete = () => true, pruneAtCrosses = false, maxNodes = 200_000 } = opts;
  const n = cols * rows;
  const candidates: number[][] = tiles.map((m) => {
    const out: number[] = [];
    let r = m;
    for (let k = 0; k < 4; k++) {
      if (!out.includes(r)) out.push(r);
      r = rot(r);
    }
    return out;
  });
  const sol = new Array<number>(n).fill(0);
  let nodes = 0;
  const fits = (i: number, c: number): boolean => {
    const x = i % cols;
    const y = Math.floor(i / cols);
    const north = y === 0 ? 0 : (sol[i - cols] >> 2) & 1;
    const west = x === 0 ? 0 : (sol[i - 1] >> 1) & 1;
    if ((c & 1) !== north || ((c >> 3) & 1) !== west) return false;
    const east = (c >> 1) & 1;
    const south = (c >> 2) & 1;
    if (x === cols - 1 ? east : east && tiles[i + 1] === 0) return false;
    if (y === rows - 1 ? south : south && tiles[i + cols] === 0) return false;
    if (pruneAtCrosses && x < cols - 1 && tiles[i + 1] === 15 && !east) return false;
    if (pruneAtCrosses && y < rows - 1 && tiles[i + cols] === 15 && !south) return false;
    return true;
  };
  const go = (i: number): boolean => {
    if (i === n) return complete(sol);
    if (++nodes > maxNodes) return false;
    for (const c of candidates[i]) {
      if (!fits(i, c)) continue;
      sol[i] = c;
      if (go(i + 1)) return true;
    }
    return false;
  };
  return go(0) ? sol : null;
}

/**
 * A tap on cell (cx, cy) of a grid × grid board: turns its tile a quarter (empty cells and
 * crosses do not change when turned, and cost nothing), counts the move and starts the tile's
 * swing. Returns the time of the move, or null when nothing turned.
 */
export function turnTileAt(
  s: { gameOver: boolean; tiles: number[]; moves: number },
  grid: number,
  cx: number,
  cy: number,
  view: Redraw,
  turns: TurnClock,
): number | null {
  if (s.gameOver) return null;
  if (cx < 0 || cy < 0 || cx >= grid || cy >= grid) return null;
  const i = cy * grid + cx;
  const m = s.tiles[i];
  if (m === 0 || m === 15) return null;
  s.tiles[i] = rot(m);
  s.moves++;
  const now = performance.now();
  view.animUntil = Math.max(view.animUntil, turns.turned(i, now));
  return now;
}

const TURN_MS = 110;

/** When each tile was last turned, so it can be drawn swinging into place. */
export class TurnClock {
  private readonly at: number[];

  constructor(cells: number) {
    this.at = new Array(cells).fill(-1e9);
  }

  /** Tile i turned at `now`; returns when its swing ends. */
  turned(i: number, now: number): number {
    this.at[i] = now;
    return now + TURN_MS;
  }

  /** A new level: nothing swings. */
  reset(): void {
    this.at.fill(-1e9);
  }

  /** The angle to draw tile i at: a quarter turn back at the moment it turned, 0 once its swing is over. */
  angle(i: number, now: number): number {
    return -(Math.PI / 2) * (1 - Math.min(1, (now - this.at[i]) / TURN_MS));
  }
}
