/**
 * Tiles with openings on their four sides, as bitmasks N=1, E=2, S=4, W=8, that the player
 * turns a quarter at a time (energy, infinity-loop).
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
