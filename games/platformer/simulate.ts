import type { PlatformerVerifierState } from '../../verifiers/platformer';
import { DT, PHYS, TILE, stepEnemies, stepPlayer, takeCoins, type EnemyBody, type Input, type PlayerBody, type TileWorld } from './physics';

/**
 * The course around the player, rebuilt from the verifier state and run forward with the game's
 * own physics (player, enemies, coins, ?-blocks): what a preset action would do. Used by the
 * scripted agent's search and by the afterstate features (afterstates.ts).
 */

/** The preset's actions, in the manifest's order. */
export const RIGHT = 0,
  JUMP_RIGHT = 1,
  JUMP = 2,
  LEFT = 3,
  NOOP = 4;
export const ACTIONS = [RIGHT, JUMP_RIGHT, JUMP, LEFT, NOOP] as const;
const INPUTS: Record<number, Input> = {
  [RIGHT]: { left: false, right: true, jump: false },
  [JUMP_RIGHT]: { left: false, right: true, jump: true },
  [JUMP]: { left: false, right: false, jump: true },
  [LEFT]: { left: true, right: false, jump: false },
  [NOOP]: { left: false, right: false, jump: false },
};

export interface Sim {
  p: PlayerBody;
  enemies: (EnemyBody & { active: boolean; alive: boolean })[];
  coins: { x: number; y: number; taken: boolean }[];
  /** The course as the verifier read it. */
  course: TileWorld;
  /** ?-blocks bumped in this branch (key x·64 + y → the tile they became). */
  tiles: Map<number, number>;
  /** The course under the bumped blocks: what the physics collides with. */
  world: TileWorld;
  camX: number;
  minX: number;
  /** Half the visible width: enemies wake up when they come within it (plus 2) of the camera. */
  viewHalf: number;
  invulnerable: number;
  /** Points scored since the root: 5 per coin and ?-block, 10 per stomp (distance is the caller's). */
  score: number;
  dead: boolean;
  frames: number;
}

/** Frames per step and how many of them the key is held, from the manifest's step length. */
export interface StepTiming {
  frames: number;
  holdFrames: number;
}

/**
 * Frames come every 1000/60 ms after the key goes down, and the key goes up after `holdFrames`
 * of them (the runtime releases it at the step's end, just before the frame due at that instant).
 */
export function stepTiming(msPerStep: number): StepTiming {
  const frames = Math.floor((msPerStep * 60) / 1000 + 1e-9);
  let holdFrames = 0;
  while (holdFrames < frames && ((holdFrames + 1) * 1000) / 60 < msPerStep - 1e-9) holdFrames++;
  return { frames, holdFrames };
}

/** The simulation at the state the verifier read. */
export function simFromState(state: PlatformerVerifierState): Sim {
  const { x0, tiles } = state.view;
  const course: TileWorld = {
    tile(x, y) {
      const c = tiles[x - x0];
      return c ? c[y] : TILE.EMPTY;
    },
  };
  return withWorld({
    p: { ...state.player, w: PHYS.playerW, h: PHYS.playerH },
    enemies: state.enemies.map((e) => ({
      x: e.x,
      y: e.y,
      vx: e.vx,
      vy: e.vy,
      w: PHYS.enemyW,
      h: PHYS.enemyH,
      onGround: e.onGround,
      kind: e.kind,
      speed: Math.abs(e.vx),
      active: e.active,
      alive: true,
    })),
    coins: state.coinsNear.map(([x, y]) => ({ x, y, taken: false })),
    course,
    tiles: new Map(),
    camX: state.camX,
    minX: state.minX,
    viewHalf: state.camX - state.minX + 0.3,
    invulnerable: state.invulnerableMs,
    score: 0,
    dead: false,
    frames: 0,
  });
}

function withWorld(s: Omit<Sim, 'world'>): Sim {
  const { course, tiles } = s;
  return { ...s, world: { tile: (x, y) => tiles.get(x * 64 + y) ?? course.tile(x, y) } };
}

/** An independent copy: its own bodies, coins and bumped blocks. */
export function cloneSim(s: Sim): Sim {
  return withWorld({
    ...s,
    p: { ...s.p },
    enemies: s.enemies.map((e) => ({ ...e })),
    coins: s.coins.map((c) => ({ ...c })),
    tiles: new Map(s.tiles),
  });
}

/** One 60 Hz frame of the game's update, mirrored. */
function frame(s: Sim, input: Input, pressed: boolean): void {
  if (s.dead) return;
  s.frames++;
  const p = s.p;
  const bumped = stepPlayer(s.world, p, input, pressed, s.minX);
  if (bumped && s.world.tile(bumped[0], bumped[1]) === TILE.QUESTION) {
    s.tiles.set(bumped[0] * 64 + bumped[1], TILE.USED);
    s.score += 5;
  }
  if (s.invulnerable > 0) s.invulnerable = Math.max(0, s.invulnerable - DT * 1000);
  if (stepEnemies(s.world, s.enemies, p, s.camX + s.viewHalf + 2, s.invulnerable > 0, () => (s.score += 10))) {
    s.dead = true;
    return;
  }
  s.score += 5 * takeCoins(s.coins, p);
  if (p.y < -1.5) {
    s.dead = true;
    return;
  }
  s.camX = Math.max(s.camX, p.x + 2.5);
  s.minX = s.camX - s.viewHalf + 0.3;
}

/** One step of a preset action, in place. */
export function runAction(s: Sim, action: number, timing: StepTiming): void {
  const input = INPUTS[action];
  for (let i = 0; i < timing.frames && !s.dead; i++) frame(s, i < timing.holdFrames ? input : INPUTS[NOOP], i === 0 && input.jump);
}

/** Whether the sim can still come to rest safely: it lands (or is standing) without dying. */
export function safeEnd(s: Sim): boolean {
  for (const action of [NOOP, RIGHT, LEFT]) {
    const t = cloneSim(s);
    let ok = true;
    for (let i = 0; i < 45; i++) {
      frame(t, INPUTS[action], false);
      if (t.dead) {
        ok = false;
        break;
      }
      if (t.p.onGround && i >= 10) break;
    }
    if (ok) return true;
  }
  return false;
}

/**
 * Every sequence of `depth` preset actions from `s` (in `order`), each run on its own copy: `visit`
 * gets the state at its end, or where it lost a life, and the sequence's first action.
 */
export function explore(s: Sim, depth: number, timing: StepTiming, order: readonly number[], visit: (end: Sim, first: number) => void): void {
  const walk = (t: Sim, left: number, first: number): void => {
    if (left === 0 || t.dead) {
      visit(t, first);
      return;
    }
    for (const a of order) {
      const next = cloneSim(t);
      runAction(next, a, timing);
      walk(next, left - 1, left === depth ? a : first);
    }
  };
  walk(s, depth, -1);
}
