import type { ScriptedPolicy } from '../../gym/agents';
import type { PlatformerVerifierState } from '../../verifiers/platformer';
import { DT, PHYS, TILE, stepEnemies, stepPlayer, takeCoins, type EnemyBody, type Input, type PlayerBody, type TileWorld } from './physics';

/**
 * Model-predictive runner: it rebuilds the course around the player from the verifier state and
 * simulates every sequence of three preset actions with the game's own physics (player, enemies,
 * coins, ?-blocks), then checks that the end state is not doomed (still able to land). It plays
 * the first action of the sequence that ends furthest right, counting coins and stomps as the
 * score does, and avoids any sequence that loses a life.
 */

const RIGHT = 0,
  JUMP_RIGHT = 1,
  JUMP = 2,
  LEFT = 3,
  NOOP = 4;
const ACTIONS = [RIGHT, JUMP_RIGHT, JUMP, NOOP, LEFT];
const INPUTS: Record<number, Input> = {
  [RIGHT]: { left: false, right: true, jump: false },
  [JUMP_RIGHT]: { left: false, right: true, jump: true },
  [JUMP]: { left: false, right: false, jump: true },
  [LEFT]: { left: true, right: false, jump: false },
  [NOOP]: { left: false, right: false, jump: false },
};
const DEPTH = 3;

interface Sim {
  p: PlayerBody;
  enemies: (EnemyBody & { active: boolean; alive: boolean })[];
  coins: { x: number; y: number; taken: boolean }[];
  tiles: Map<number, number>;
  camX: number;
  minX: number;
  /** Half the visible width: enemies wake up when they come within it (plus 2) of the camera. */
  viewHalf: number;
  invulnerable: number;
  score: number;
  dead: boolean;
  frames: number;
}

function clone(s: Sim): Sim {
  return {
    p: { ...s.p },
    enemies: s.enemies.map((e) => ({ ...e })),
    coins: s.coins.map((c) => ({ ...c })),
    tiles: s.tiles,
    camX: s.camX,
    minX: s.minX,
    viewHalf: s.viewHalf,
    invulnerable: s.invulnerable,
    score: s.score,
    dead: s.dead,
    frames: s.frames,
  };
}

function makeWorld(state: PlatformerVerifierState, overrides: Map<number, number>): TileWorld {
  const { x0, tiles } = state.view;
  return {
    tile(x, y) {
      const o = overrides.get(x * 64 + y);
      if (o !== undefined) return o;
      const c = tiles[x - x0];
      return c ? c[y] : TILE.EMPTY;
    },
  };
}

/** One 60 Hz frame of the game's update, mirrored. */
function frame(world: TileWorld, s: Sim, input: Input, pressed: boolean): void {
  if (s.dead) return;
  s.frames++;
  const p = s.p;
  const bumped = stepPlayer(world, p, input, pressed, s.minX);
  if (bumped && world.tile(bumped[0], bumped[1]) === TILE.QUESTION) {
    s.tiles.set(bumped[0] * 64 + bumped[1], TILE.USED);
    s.score += 5;
  }
  if (s.invulnerable > 0) s.invulnerable = Math.max(0, s.invulnerable - DT * 1000);
  if (stepEnemies(world, s.enemies, p, s.camX + s.viewHalf + 2, s.invulnerable > 0, () => (s.score += 10))) {
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

/**
 * One step of an action: frames come every 1000/60 ms after the key goes down, and the key goes
 * up after `holdFrames` of them (the runtime releases it at the step's end, just before the
 * frame due at that instant).
 */
function runAction(world: TileWorld, s: Sim, action: number, frames: number, holdFrames: number): void {
  const input = INPUTS[action];
  for (let i = 0; i < frames && !s.dead; i++) frame(world, s, i < holdFrames ? input : INPUTS[NOOP], i === 0 && input.jump);
}

/** Whether the sim can still come to rest safely: it lands (or is standing) without dying. */
function safeEnd(world: TileWorld, s: Sim): boolean {
  for (const action of [NOOP, RIGHT, LEFT]) {
    const t = clone(s);
    t.tiles = new Map(s.tiles);
    const w = withOverrides(world, t.tiles);
    let ok = true;
    for (let i = 0; i < 45; i++) {
      frame(w, t, INPUTS[action], false);
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

function withOverrides(world: TileWorld, tiles: Map<number, number>): TileWorld {
  return { tile: (x, y) => tiles.get(x * 64 + y) ?? world.tile(x, y) };
}

const policy: ScriptedPolicy<PlatformerVerifierState> = (state, ctx) => {
  if (state.gameOver || state.dying) return NOOP;
  const framesPerStep = Math.floor((ctx.manifest.msPerStep * 60) / 1000 + 1e-9);
  let holdFrames = 0;
  while (holdFrames < framesPerStep && ((holdFrames + 1) * 1000) / 60 < ctx.manifest.msPerStep - 1e-9) holdFrames++;
  const base = makeWorld(state, new Map());
  const root: Sim = {
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
    tiles: new Map(),
    camX: state.camX,
    minX: state.minX,
    viewHalf: state.camX - state.minX + 0.3,
    invulnerable: state.invulnerableMs,
    score: 0,
    dead: false,
    frames: 0,
  };
  let best = { value: -Infinity, action: RIGHT };
  const search = (s: Sim, depth: number, first: number): void => {
    if (depth === DEPTH || s.dead) {
      let value = s.p.x + s.score;
      if (s.dead) value = -1000 + s.frames;
      else if (!safeEnd(withOverrides(base, s.tiles), s)) value -= 500;
      // Ties: prefer plain running, then earlier actions in ACTIONS order.
      if (value > best.value + 1e-6) best = { value, action: first };
      return;
    }
    for (const a of ACTIONS) {
      const t = clone(s);
      t.tiles = new Map(s.tiles);
      runAction(withOverrides(base, t.tiles), t, a, framesPerStep, holdFrames);
      search(t, depth + 1, depth === 0 ? a : first);
    }
  };
  search(root, 0, RIGHT);
  return best.action;
};
export default policy;
