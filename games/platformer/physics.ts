/**
 * Pure physics of the platformer (no DOM): a tile world, the player's run/jump model and the
 * walking enemies, stepped at a fixed 60 Hz. Shared by the game and its scripted agent, which
 * simulates candidate inputs with exactly these rules.
 *
 * Units are tiles and seconds; x grows to the right, y grows upwards, y = 0 is the bottom of
 * the world (anything below is a pit).
 */

export const ROWS = 14;
export const DT = 1 / 60;

export const TILE = {
  EMPTY: 0,
  GROUND: 1,
  BRICK: 2,
  QUESTION: 3,
  USED: 4,
  PIPE: 5,
  STONE: 6,
} as const;

export const PHYS = {
  runAccel: 32,
  airAccel: 20,
  turnAccel: 60,
  friction: 28,
  maxSpeed: 7.5,
  jumpSpeed: 17,
  /** Gravity while rising with the jump key held: holding jumps higher. */
  gravityHold: 40,
  gravity: 75,
  maxFall: 20,
  /** A jump press is remembered this long, and the ground this long after leaving it. */
  jumpBuffer: 0.13,
  coyote: 0.08,
  playerW: 0.7,
  playerH: 0.9,
  enemyW: 0.8,
  enemyH: 0.75,
  /** Bounce off a stomped enemy. */
  stompBounce: 12,
};

export interface TileWorld {
  /** Tile id at integer (x, y); outside the world: walls left of x = 0, nothing below y = 0. */
  tile(x: number, y: number): number;
}

export const isSolid = (t: number) => t !== TILE.EMPTY;

export function solidAt(w: TileWorld, x: number, y: number): boolean {
  if (y < 0 || y >= ROWS) return false;
  if (x < 0) return true;
  return isSolid(w.tile(x, y));
}

export interface Body {
  /** Centre x and bottom y. */
  x: number;
  y: number;
  vx: number;
  vy: number;
  w: number;
  h: number;
  onGround: boolean;
}

export interface PlayerBody extends Body {
  /** Seconds left on a buffered jump press, and of coyote time after leaving the ground. */
  jumpBuffer: number;
  coyote: number;
  facing: 1 | -1;
}

export interface Input {
  left: boolean;
  right: boolean;
  /** The jump key is down. */
  jump: boolean;
}

const EPS = 1e-4;

/** Moves a body by (dx, 0) and stops it at solid tiles; returns true if it hit one. */
function moveX(w: TileWorld, b: Body, dx: number): boolean {
  if (dx === 0) return false;
  b.x += dx;
  const x0 = b.x - b.w / 2;
  const x1 = b.x + b.w / 2;
  const y0 = Math.floor(b.y + EPS);
  const y1 = Math.floor(b.y + b.h - EPS);
  if (dx > 0) {
    const tx = Math.floor(x1 - EPS);
    for (let ty = y0; ty <= y1; ty++) {
      if (solidAt(w, tx, ty)) {
        b.x = tx - b.w / 2;
        return true;
      }
    }
  } else {
    const tx = Math.floor(x0 + EPS);
    for (let ty = y0; ty <= y1; ty++) {
      if (solidAt(w, tx, ty)) {
        b.x = tx + 1 + b.w / 2;
        return true;
      }
    }
  }
  return false;
}

/** Moves a body by (0, dy); lands it on or bumps it under solid tiles. Returns the bumped tile. */
function moveY(w: TileWorld, b: Body, dy: number): [number, number] | null {
  b.y += dy;
  const x0 = Math.floor(b.x - b.w / 2 + EPS);
  const x1 = Math.floor(b.x + b.w / 2 - EPS);
  b.onGround = false;
  if (dy <= 0) {
    const ty = Math.floor(b.y);
    for (let tx = x0; tx <= x1; tx++) {
      if (solidAt(w, tx, ty) && b.y < ty + 1) {
        b.y = ty + 1;
        b.vy = 0;
        b.onGround = true;
        return null;
      }
    }
  } else {
    const ty = Math.floor(b.y + b.h);
    // Bump the tile nearest the body's centre first, as a head hits what is above it.
    const order = [Math.floor(b.x), x0, x1];
    for (const tx of order) {
      if (tx < x0 || tx > x1) continue;
      if (solidAt(w, tx, ty)) {
        b.y = ty - b.h;
        b.vy = 0;
        return [tx, ty];
      }
    }
  }
  return null;
}

/** Whether the body stands on something (checked just below its feet). */
function grounded(w: TileWorld, b: Body): boolean {
  const top = Math.round(b.y);
  if (Math.abs(b.y - top) > 0.02) return false;
  const ty = top - 1;
  const x0 = Math.floor(b.x - b.w / 2 + EPS);
  const x1 = Math.floor(b.x + b.w / 2 - EPS);
  for (let tx = x0; tx <= x1; tx++) if (solidAt(w, tx, ty)) return true;
  return false;
}

/** A falling body whose feet are within a hair of a floor stands on it. */
function settle(w: TileWorld, b: Body): void {
  if (!b.onGround && b.vy <= 0 && grounded(w, b)) {
    b.onGround = true;
    b.y = Math.round(b.y);
    b.vy = 0;
  }
}

export function newPlayer(x: number, y: number): PlayerBody {
  return { x, y, vx: 0, vy: 0, w: PHYS.playerW, h: PHYS.playerH, onGround: true, jumpBuffer: 0, coyote: 0, facing: 1 };
}

/**
 * One fixed physics step of the player. `pressed` is true on the step right after a jump key
 * press. `minX` is the left edge the camera allows. Returns the tile bumped from below, if any.
 */
export function stepPlayer(w: TileWorld, p: PlayerBody, input: Input, pressed: boolean, minX: number): [number, number] | null {
  const dt = DT;
  const dir = (input.right ? 1 : 0) - (input.left ? 1 : 0);
  if (dir !== 0) {
    p.facing = dir as 1 | -1;
    const accel = !p.onGround ? PHYS.airAccel : p.vx * dir < 0 ? PHYS.turnAccel : PHYS.runAccel;
    p.vx += dir * accel * dt;
    if (Math.abs(p.vx) > PHYS.maxSpeed) p.vx = Math.sign(p.vx) * PHYS.maxSpeed;
  } else if (p.onGround) {
    const dv = PHYS.friction * dt;
    p.vx = Math.abs(p.vx) <= dv ? 0 : p.vx - Math.sign(p.vx) * dv;
  }
  if (pressed) p.jumpBuffer = PHYS.jumpBuffer;
  if (p.onGround) p.coyote = PHYS.coyote;
  if (p.jumpBuffer > 0 && input.jump && p.coyote > 0) {
    p.vy = PHYS.jumpSpeed;
    p.jumpBuffer = 0;
    p.coyote = 0;
    p.onGround = false;
  }
  p.jumpBuffer = Math.max(0, p.jumpBuffer - dt);
  p.coyote = Math.max(0, p.coyote - dt);
  const g = input.jump && p.vy > 0 ? PHYS.gravityHold : PHYS.gravity;
  p.vy = Math.max(-PHYS.maxFall, p.vy - g * dt);

  if (moveX(w, p, p.vx * dt)) p.vx = 0;
  if (p.x - p.w / 2 < minX) {
    p.x = minX + p.w / 2;
    if (p.vx < 0) p.vx = 0;
  }
  const bumped = moveY(w, p, p.vy * dt);
  settle(w, p);
  return bumped;
}

export interface EnemyBody extends Body {
  kind: 'walker' | 'spiky';
  speed: number;
}

/** One fixed step of a walking enemy: it walks, falls off ledges and turns at walls. */
export function stepEnemy(w: TileWorld, e: EnemyBody, dt = DT): void {
  e.vy = Math.max(-PHYS.maxFall, e.vy - PHYS.gravity * dt);
  if (moveX(w, e, e.vx * dt)) e.vx = -e.vx;
  moveY(w, e, e.vy * dt);
  settle(w, e);
}

export function overlaps(a: Body, b: Body): boolean {
  return Math.abs(a.x - b.x) < (a.w + b.w) / 2 && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** What touching an enemy does: a walker landed on from above is stomped, anything else hurts. */
export function contact(p: Body, e: EnemyBody): 'stomp' | 'hurt' | null {
  if (!overlaps(p, e)) return null;
  if (e.kind === 'walker' && p.vy < 0 && p.y > e.y + e.h * 0.45) return 'stomp';
  return 'hurt';
}

/**
 * One frame of the enemies against the player, as the game runs it (its scripted agent mirrors
 * it with the same code): an enemy wakes once it is left of `wakeX`, moves, falls out of the
 * world below y = −2, and is stomped (the player bounces; `stomped` is told) or hurts. Returns
 * true when one hurts a player who is not `invulnerable`; the frame stops there.
 */
export function stepEnemies<E extends EnemyBody & { active: boolean; alive: boolean }>(
  w: TileWorld,
  enemies: E[],
  p: PlayerBody,
  wakeX: number,
  invulnerable: boolean,
  stomped: (e: E) => void,
): boolean {
  for (const e of enemies) {
    if (!e.alive) continue;
    if (!e.active && e.x < wakeX) e.active = true;
    if (!e.active) continue;
    stepEnemy(w, e);
    if (e.y < -2) {
      e.alive = false;
      continue;
    }
    const c = contact(p, e);
    if (c === 'stomp') {
      e.alive = false;
      p.vy = PHYS.stompBounce;
      stomped(e);
    } else if (c === 'hurt' && !invulnerable) {
      return true;
    }
  }
  return false;
}

/** Takes the coins the player touches this frame; returns how many. */
export function takeCoins(coins: { x: number; y: number; taken: boolean }[], p: Body): number {
  let n = 0;
  for (const c of coins) {
    if (!c.taken && Math.abs(c.x - p.x) < 0.3 + p.w / 2 && c.y > p.y - 0.3 && c.y < p.y + p.h + 0.3) {
      c.taken = true;
      n++;
    }
  }
  return n;
}
