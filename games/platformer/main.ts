import * as THREE from 'three';
import { drawText } from '../shared/canvas';
import {
  bakedMaterial,
  builderMesh,
  createStage,
  MeshBuilder,
  roundRect,
  FACE_FRONT,
  FACE_LEFT,
  FACE_RIGHT,
  FACE_TOP,
  FACES_VISIBLE,
} from '../shared-three/stage';
import { DT, PHYS, ROWS, TILE, newPlayer, stepEnemies, stepPlayer, takeCoins, type EnemyBody, type PlayerBody, type TileWorld } from './physics';
import { START_FLAT, generateSection, newLevel, type LevelState } from './level';

/**
 * A side-scrolling platformer in low-poly 3D: run right, jump gaps, pipes and stairs, stomp
 * walkers (spiky ones cannot be stomped), grab coins and bump ?-blocks. The course is generated
 * from the seed as you go and gets harder with distance. Falling into a pit or touching an enemy
 * costs a life; the game is over when all three are gone. Physics runs at a fixed 60 Hz from
 * requestAnimationFrame time deltas; the scene renders at most 30 times a second.
 *
 * Score = furthest distance reached (tiles) + 5 per coin + 10 per stomp.
 */

const WIDTH = 400;
const HEIGHT = 300;
const START_X = 3.5;
const DEATH_MS = 800;
const INVULNERABLE_MS = 2000;
const CHUNK = 16;
const VIEW_HALF = 8.7; // half the visible width at the play plane, in tiles

interface Enemy extends EnemyBody {
  id: number;
  active: boolean;
  alive: boolean;
}

interface Coin {
  x: number;
  y: number;
  taken: boolean;
}

export interface PlatformerState {
  score: number;
  gameOver: boolean;
  lives: number;
  level: number;
  /** Tiles from the start to the player, and the furthest that has been reached. */
  distance: number;
  maxDistance: number;
  coins: number;
  stomps: number;
  deaths: number;
  player: PlayerBody;
  /** ms left of the death pause (the player respawns when it ends), and of invulnerability. */
  dyingMs: number;
  invulnerableMs: number;
  enemies: Enemy[];
  coinList: Coin[];
  /** The course, column by column (tile ids, bottom first). */
  cols: number[][];
  camX: number;
  /** The left edge the player cannot pass (the screen's edge: the course never scrolls back). */
  minX: number;
  startX: number;
  /** Fixed 60 Hz physics steps since the start. */
  frames: number;
}

const w = window as unknown as { platformer: PlatformerState };
let level: LevelState;
let nextEnemyId = 1;
let checkpoint = { x: START_X, y: 2 };

const world: TileWorld = {
  tile: (x, y) => {
    const c = w.platformer.cols[x];
    return c ? c[y] : TILE.EMPTY;
  },
};

function difficulty(x: number): number {
  return Math.min(1, Math.max(0, (x - START_FLAT) / 320));
}

function extendCourse(s: PlatformerState): void {
  let added = false;
  while (level.cols.length < s.player.x + 40) {
    generateSection(level, difficulty(level.cols.length));
    added = true;
  }
  if (!added) return;
  for (const e of level.enemies.splice(0)) {
    s.enemies.push({
      id: nextEnemyId++,
      x: e.x,
      y: e.y,
      vx: -e.speed,
      vy: 0,
      w: PHYS.enemyW,
      h: PHYS.enemyH,
      onGround: true,
      kind: e.kind,
      speed: e.speed,
      active: false,
      alive: true,
    });
  }
  for (const [x, y] of level.coins.splice(0)) s.coinList.push({ x, y, taken: false });
  chunksDirty = true;
}

function newGame(): PlatformerState {
  level = newLevel();
  nextEnemyId = 1;
  checkpoint = { x: START_X, y: 2 };
  const s: PlatformerState = {
    score: 0,
    gameOver: false,
    lives: 3,
    level: 1,
    distance: 0,
    maxDistance: 0,
    coins: 0,
    stomps: 0,
    deaths: 0,
    player: newPlayer(START_X, 2),
    dyingMs: 0,
    invulnerableMs: 0,
    enemies: [],
    coinList: [],
    cols: level.cols,
    camX: VIEW_HALF,
    minX: 0.3,
    startX: START_X,
    frames: 0,
  };
  w.platformer = s;
  extendCourse(s);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Input: held keys, plus a latch so a press shorter than a frame still jumps.

const held = new Set<string>();
let jumpLatch = false;
const JUMP_KEYS = new Set(['ArrowUp', ' ', 'w', 'x']);
const RIGHT_KEYS = new Set(['ArrowRight', 'd', 'x']);
const LEFT_KEYS = new Set(['ArrowLeft', 'a']);
const norm = (k: string) => (k.length === 1 ? k.toLowerCase() : k);

window.addEventListener('keydown', (e) => {
  const k = norm(e.key);
  if (k === 'Enter' && w.platformer.gameOver) {
    restart();
    return;
  }
  if (JUMP_KEYS.has(k) || RIGHT_KEYS.has(k) || LEFT_KEYS.has(k)) e.preventDefault();
  if (JUMP_KEYS.has(k) && !e.repeat && !held.has(k)) jumpLatch = true;
  held.add(k);
});
window.addEventListener('keyup', (e) => {
  held.delete(norm(e.key));
});
window.addEventListener('blur', () => held.clear());

const anyHeld = (keys: Set<string>) => {
  for (const k of keys) if (held.has(k)) return true;
  return false;
};

// Touch: the left third runs left, the right third runs right, the middle jumps; a tap high on
// the right jumps forward.
const touches = new Map<number, string>();
function touchKey(x: number, y: number): string {
  if (x > (WIDTH * 2) / 3) return y < HEIGHT / 2 ? 'x' : 'ArrowRight';
  if (x < WIDTH / 3) return 'ArrowLeft';
  return 'ArrowUp';
}

// ---------------------------------------------------------------------------------------------
// Simulation.

let coinPops: { x: number; y: number; t: number }[] = [];
let squashed: { x: number; y: number; t: number; kind: string }[] = [];
let deathAnim = -1;
let simTime = 0;

function die(s: PlatformerState): void {
  s.lives--;
  s.deaths++;
  deathAnim = simTime;
  if (s.lives <= 0) {
    s.lives = 0;
    s.gameOver = true;
    return;
  }
  s.dyingMs = DEATH_MS;
}

function respawn(s: PlatformerState): void {
  const p = s.player;
  p.x = checkpoint.x;
  p.y = checkpoint.y;
  p.vx = 0;
  p.vy = 0;
  p.onGround = true;
  p.jumpBuffer = 0;
  p.coyote = 0;
  s.invulnerableMs = INVULNERABLE_MS;
  s.camX = Math.max(p.x + 3, VIEW_HALF);
  s.minX = s.camX - VIEW_HALF + 0.3;
  // Clear the enemies around the respawn point so it is not a trap.
  for (const e of s.enemies) if (e.alive && e.x > p.x - 4 && e.x < p.x + 8) e.alive = false;
}

function physicsStep(s: PlatformerState): void {
  s.frames++;
  simTime += DT * 1000;
  if (s.dyingMs > 0) {
    s.dyingMs -= DT * 1000;
    if (s.dyingMs <= 0) {
      s.dyingMs = 0;
      respawn(s);
    }
    return;
  }
  const p = s.player;
  const input = { left: anyHeld(LEFT_KEYS), right: anyHeld(RIGHT_KEYS), jump: anyHeld(JUMP_KEYS) || jumpLatch };
  const pressed = jumpLatch;
  jumpLatch = false;
  const bumped = stepPlayer(world, p, input, pressed, s.minX);
  if (bumped) {
    const [bx, by] = bumped;
    if (s.cols[bx][by] === TILE.QUESTION) {
      s.cols[bx][by] = TILE.USED;
      s.coins++;
      coinPops.push({ x: bx + 0.5, y: by + 1.2, t: simTime });
      chunksDirty = true;
    }
  }
  if (s.invulnerableMs > 0) s.invulnerableMs = Math.max(0, s.invulnerableMs - DT * 1000);

  const hurt = stepEnemies(world, s.enemies, p, s.camX + VIEW_HALF + 2, s.invulnerableMs > 0, (e) => {
    s.stomps++;
    squashed.push({ x: e.x, y: e.y, t: simTime, kind: e.kind });
  });
  if (hurt) {
    die(s);
    return;
  }
  s.coins += takeCoins(s.coinList, p);
  if (p.y < -1.5) {
    die(s);
    return;
  }
  // Checkpoint: solid footing with no enemy close by.
  if (p.onGround && !s.enemies.some((e) => e.alive && Math.abs(e.x - p.x) < 3)) {
    const under = Math.round(p.y) - 1;
    const l = Math.floor(p.x - p.w / 2);
    const r = Math.floor(p.x + p.w / 2);
    if (under >= 0 && s.cols[l]?.[under] && s.cols[r]?.[under]) checkpoint = { x: p.x, y: p.y };
  }
  s.camX = Math.max(s.camX, p.x + 2.5);
  s.minX = s.camX - VIEW_HALF + 0.3;
  s.distance = Math.max(0, Math.floor(p.x - s.startX));
  s.maxDistance = Math.max(s.maxDistance, s.distance);
  s.level = 1 + Math.floor(s.maxDistance / 100);
  s.score = s.maxDistance + 5 * s.coins + 10 * s.stomps;
  extendCourse(s);
  // Forget what has scrolled far behind.
  if (s.frames % 60 === 0) {
    s.enemies = s.enemies.filter((e) => e.alive && e.x > s.camX - 30);
    s.coinList = s.coinList.filter((c) => !c.taken && c.x > s.camX - 30);
  }
}

function restart(): void {
  held.clear();
  jumpLatch = false;
  coinPops = [];
  squashed = [];
  deathAnim = -1;
  newGame();
  rebuildAllChunks();
}

// ---------------------------------------------------------------------------------------------
// Scene.

const stage = createStage('Platformer', WIDTH, HEIGHT, 0x86c8ff);
const scene = new THREE.Scene();
const camera = new THREE.PerspectiveCamera(38, WIDTH / HEIGHT, 1, 60);
const material = bakedMaterial();

const C = (hex: number) => new THREE.Color(hex);
const COL = {
  dirt: C(0xc9773f),
  dirtDark: C(0xb5672f),
  grass: C(0x5ccb4a),
  grassDark: C(0x47b53a),
  brick: C(0xc2562d),
  brickFace: C(0xd66a3a),
  question: C(0xf6b92b),
  questionMark: C(0x8a4b12),
  used: C(0x8f6b4a),
  pipe: C(0x1f9a3a),
  pipeLight: C(0x3fcf5a),
  stone: C(0x9b918a),
  stoneFace: C(0xb2a9a2),
  hill: C(0x74c27a),
  hillFar: C(0xa3d9a8),
  cloud: new THREE.Color(1.3, 1.3, 1.32),
  bush: C(0x3e9e3b),
  red: C(0xe0352b),
  blue: C(0x2c55c9),
  skin: C(0xf6c291),
  shoe: C(0x5b3412),
  walker: C(0x9c5a2c),
  walkerCap: C(0xc27a3e),
  spiky: C(0xd93a3a),
  spike: C(0xf2ead8),
  eye: C(0xffffff),
  pupil: C(0x111111),
  coin: C(0xffd23a),
  coinEdge: C(0xd9a31c),
};

function hash(n: number): number {
  let h = Math.imul(n ^ 0x27d4eb2d, 0x165667b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca77);
  h ^= h >>> 13;
  return (h >>> 0) / 4294967296;
}

interface Chunk {
  index: number;
  builder: MeshBuilder;
  mesh: THREE.Mesh;
}
const chunks = new Map<number, Chunk>();
let chunksDirty = true;
let chunkSignature = new Map<number, string>();

function tileAt(s: PlatformerState, x: number, y: number): number {
  if (y < 0 || y >= ROWS) return TILE.EMPTY;
  return s.cols[x]?.[y] ?? TILE.EMPTY;
}

function groundTop(col: number[] | undefined): number {
  if (!col) return 0;
  let h = 0;
  while (h < ROWS && col[h] === TILE.GROUND) h++;
  return h;
}

/** A rounded hill in the xy plane: a half-ellipse front face with a shaded rim going back. */
function hill(b: MeshBuilder, cx: number, rx: number, ry: number, z: number, color: THREE.Color): void {
  const n = 10;
  const depth = 2;
  const pts: [number, number][] = [];
  for (let i = 0; i <= n; i++) {
    const a = (i / n) * Math.PI;
    pts.push([cx + rx * Math.cos(a), ry * Math.sin(a)]);
  }
  for (let i = 0; i < n; i++) {
    const [x1, y1] = pts[i];
    const [x2, y2] = pts[i + 1];
    b.tri(cx, 0, z, x1, y1, z, x2, y2, z, color, 0.8 + 0.1 * Math.sin((i / n) * Math.PI));
    b.quad([x1, y1, z], [x1, y1, z - depth], [x2, y2, z - depth], [x2, y2, z], color);
  }
}

function buildChunk(s: PlatformerState, index: number, b: MeshBuilder): void {
  b.clear();
  const x0 = index * CHUNK;
  // Scenery behind the course, from a hash of the chunk index (no random draws).
  for (let k = 0; k < 2; k++) {
    const hx = x0 + hash(index * 7 + k) * CHUNK;
    const far = k === 1;
    const hh = (far ? 4.5 : 3) + hash(index * 13 + k) * 2.5;
    hill(b, hx, far ? 6 : 3.6, hh, far ? -10 : -5, far ? COL.hillFar : COL.hill);
  }
  const cx = x0 + hash(index * 31) * CHUNK;
  const cy = 10 + hash(index * 17) * 2.5;
  b.box(cx, cy, -12, cx + 2.6, cy + 0.8, -11.5, COL.cloud, FACE_FRONT | FACE_TOP);
  b.box(cx + 0.6, cy + 0.6, -12, cx + 2.0, cy + 1.4, -11.5, COL.cloud, FACE_FRONT | FACE_TOP);
  for (let x = x0; x < x0 + CHUNK; x++) {
    const col = s.cols[x];
    if (!col) continue;
    const h = groundTop(col);
    if (h > 0) {
      const shade = x % 2 ? COL.dirt : COL.dirtDark;
      const lh = groundTop(s.cols[x - 1]);
      const rh = groundTop(s.cols[x + 1]);
      let faces = FACE_FRONT;
      if (lh < h) faces |= FACE_LEFT;
      if (rh < h) faces |= FACE_RIGHT;
      b.box(x, -1, -1.6, x + 1, h - 0.22, 0.5, shade, faces);
      b.box(x, h - 0.22, -1.6, x + 1, h, 0.56, x % 2 ? COL.grass : COL.grassDark, faces | FACE_TOP);
      if (hash(x * 5 + 1) < 0.18 && tileAt(s, x, h) === TILE.EMPTY) {
        b.box(x + 0.1, h, -1.3, x + 0.9, h + 0.45, -0.9, COL.bush, FACE_FRONT | FACE_TOP | FACE_LEFT | FACE_RIGHT);
      }
    }
    for (let y = h; y < ROWS; y++) {
      const t = col[y];
      if (t === TILE.EMPTY || t === TILE.GROUND) continue;
      let faces = FACE_FRONT;
      if (tileAt(s, x, y + 1) === TILE.EMPTY) faces |= FACE_TOP;
      if (tileAt(s, x - 1, y) === TILE.EMPTY) faces |= FACE_LEFT;
      if (tileAt(s, x + 1, y) === TILE.EMPTY) faces |= FACE_RIGHT;
      if (t === TILE.PIPE) {
        b.box(x, y, -0.45, x + 1, y + 1, 0.45, x % 2 ? COL.pipe : COL.pipeLight, faces);
        if (tileAt(s, x, y + 1) !== TILE.PIPE)
          b.box(
            x - (tileAt(s, x - 1, y) === TILE.PIPE ? 0 : 0.12),
            y + 0.62,
            -0.55,
            x + 1 + (tileAt(s, x + 1, y) === TILE.PIPE ? 0 : 0.12),
            y + 1,
            0.55,
            COL.pipeLight,
            FACES_VISIBLE,
          );
        continue;
      }
      const base = t === TILE.BRICK ? COL.brick : t === TILE.QUESTION ? COL.question : t === TILE.USED ? COL.used : COL.stone;
      b.box(x, y, -0.5, x + 1, y + 1, 0.5, base, faces);
      const z = 0.505;
      if (t === TILE.BRICK) {
        b.quad([x + 0.06, y + 0.55, z], [x + 0.94, y + 0.55, z], [x + 0.94, y + 0.94, z], [x + 0.06, y + 0.94, z], COL.brickFace, 0.95);
        b.quad([x + 0.06, y + 0.06, z], [x + 0.44, y + 0.06, z], [x + 0.44, y + 0.45, z], [x + 0.06, y + 0.45, z], COL.brickFace, 0.95);
        b.quad([x + 0.54, y + 0.06, z], [x + 0.94, y + 0.06, z], [x + 0.94, y + 0.45, z], [x + 0.54, y + 0.45, z], COL.brickFace, 0.95);
      } else if (t === TILE.QUESTION) {
        // A blocky question mark.
        const m = COL.questionMark;
        b.quad([x + 0.32, y + 0.72, z], [x + 0.68, y + 0.72, z], [x + 0.68, y + 0.84, z], [x + 0.32, y + 0.84, z], m, 1);
        b.quad([x + 0.58, y + 0.5, z], [x + 0.68, y + 0.5, z], [x + 0.68, y + 0.72, z], [x + 0.58, y + 0.72, z], m, 1);
        b.quad([x + 0.45, y + 0.4, z], [x + 0.58, y + 0.4, z], [x + 0.58, y + 0.52, z], [x + 0.45, y + 0.52, z], m, 1);
        b.quad([x + 0.45, y + 0.16, z], [x + 0.58, y + 0.16, z], [x + 0.58, y + 0.3, z], [x + 0.45, y + 0.3, z], m, 1);
      } else if (t === TILE.STONE) {
        b.quad([x + 0.1, y + 0.1, z], [x + 0.9, y + 0.1, z], [x + 0.9, y + 0.9, z], [x + 0.1, y + 0.9, z], COL.stoneFace, 0.9);
      }
    }
  }
  b.commit();
}

function chunkSig(s: PlatformerState, index: number): string {
  const x0 = index * CHUNK;
  let sig = '';
  for (let x = x0 - 1; x <= x0 + CHUNK; x++) sig += s.cols[x] ? s.cols[x].join('') : '-';
  return sig;
}

function syncChunks(): void {
  const s = w.platformer;
  const first = Math.floor((s.camX - 16) / CHUNK);
  const last = Math.floor((s.camX + 16) / CHUNK);
  for (const [i, c] of chunks) {
    if (i < first || i > last) {
      scene.remove(c.mesh);
      c.builder.geometry.dispose();
      chunks.delete(i);
      chunkSignature.delete(i);
    }
  }
  for (let i = Math.max(0, first); i <= last; i++) {
    let c = chunks.get(i);
    if (!c) {
      const builder = new MeshBuilder(4096);
      c = { index: i, builder, mesh: builderMesh(builder, material) };
      chunks.set(i, c);
      scene.add(c.mesh);
    }
    const sig = chunkSig(s, i);
    if (chunkSignature.get(i) !== sig) {
      chunkSignature.set(i, sig);
      buildChunk(s, i, c.builder);
    }
  }
}

function rebuildAllChunks(): void {
  chunkSignature = new Map();
  chunksDirty = true;
}

const dynamic = new MeshBuilder(4096);
scene.add(builderMesh(dynamic, material));

function drawPlayer(b: MeshBuilder, p: PlayerBody, t: number, dead: boolean): void {
  const f = p.facing;
  const x = p.x;
  let y = p.y;
  if (dead) y += Math.sin(Math.min(1, t / 700) * Math.PI) * 1.5 - (t / 700) * 1.2;
  const run = p.onGround && Math.abs(p.vx) > 0.5 ? Math.sin(t / 55) : 0;
  const air = !p.onGround;
  const z0 = -0.3;
  const z1 = 0.3;
  // Legs and shoes.
  const legL = air ? 0.12 : Math.max(0, run) * 0.15;
  const legR = air ? 0 : Math.max(0, -run) * 0.15;
  b.box(x - 0.3, y + legL, z0, x - 0.02, y + 0.12 + legL, z1, COL.shoe);
  b.box(x + 0.02, y + legR, z0, x + 0.3, y + 0.12 + legR, z1, COL.shoe);
  b.box(x - 0.28, y + 0.12, z0 + 0.05, x + 0.28, y + 0.4, z1 - 0.05, COL.blue);
  // Body and arms.
  b.box(x - 0.3, y + 0.4, z0, x + 0.3, y + 0.62, z1, COL.red);
  b.box(x - 0.2, y + 0.38, z1 - 0.02, x + 0.2, y + 0.58, z1 + 0.02, COL.blue, FACE_FRONT);
  // Head, cap and brim.
  b.box(x - 0.24, y + 0.62, z0 + 0.02, x + 0.24, y + 0.86, z1 - 0.02, COL.skin);
  b.box(x - 0.26, y + 0.84, z0, x + 0.26, y + 0.98, z1, COL.red);
  b.box(f > 0 ? x + 0.1 : x - 0.42, y + 0.84, z0 + 0.05, f > 0 ? x + 0.42 : x - 0.1, y + 0.89, z1 - 0.05, COL.red);
  // Eye.
  const ex = x + f * 0.12;
  b.box(ex - 0.04, y + 0.72, z1 - 0.02, ex + 0.04, y + 0.8, z1, COL.pupil, FACE_FRONT);
}

function drawEnemy(b: MeshBuilder, e: { x: number; y: number; kind: string }, t: number, flat = 1): void {
  const x = e.x;
  const y = e.y;
  const h = PHYS.enemyH * flat;
  if (e.kind === 'spiky') {
    b.box(x - 0.4, y + 0.1, -0.35, x + 0.4, y + h, 0.35, COL.spiky);
    for (let i = -1; i <= 1; i++) b.prism(x + i * 0.25, y + h, 0, 0.12, y + h + 0.22 * flat, 4, Math.PI / 4, COL.spike);
  } else {
    b.box(x - 0.42, y + h * 0.45, -0.38, x + 0.42, y + h, 0.38, COL.walkerCap);
    b.box(x - 0.26, y + 0.1, -0.26, x + 0.26, y + h * 0.5, 0.26, COL.walker);
  }
  if (flat > 0.5) {
    const step = Math.sin(t / 90) * 0.06;
    b.box(x - 0.36, y, -0.25, x - 0.06, y + 0.12 + step, 0.25, COL.shoe);
    b.box(x + 0.06, y, -0.25, x + 0.36, y + 0.12 - step, 0.25, COL.shoe);
    const ez = e.kind === 'spiky' ? 0.36 : 0.39;
    b.box(x - 0.22, y + h * 0.55, ez - 0.01, x - 0.06, y + h * 0.8, ez, COL.eye, FACE_FRONT);
    b.box(x + 0.06, y + h * 0.55, ez - 0.01, x + 0.22, y + h * 0.8, ez, COL.eye, FACE_FRONT);
    b.box(x - 0.17, y + h * 0.57, ez, x - 0.1, y + h * 0.7, ez + 0.01, COL.pupil, FACE_FRONT);
    b.box(x + 0.1, y + h * 0.57, ez, x + 0.17, y + h * 0.7, ez + 0.01, COL.pupil, FACE_FRONT);
  }
}

function drawCoin(b: MeshBuilder, x: number, y: number, t: number): void {
  const k = Math.cos(t / 160 + x * 0.7);
  const hw = 0.26 * Math.max(0.15, Math.abs(k));
  b.box(x - hw, y - 0.32, -0.06, x + hw, y + 0.32, 0.06, COL.coin, FACE_FRONT | FACE_TOP | FACE_LEFT | FACE_RIGHT);
  if (Math.abs(k) > 0.5)
    b.quad([x - hw * 0.35, y - 0.2, 0.065], [x + hw * 0.35, y - 0.2, 0.065], [x + hw * 0.35, y + 0.2, 0.065], [x - hw * 0.35, y + 0.2, 0.065], COL.coinEdge, 1);
}

function buildDynamic(): void {
  const s = w.platformer;
  const b = dynamic.clear();
  const left = s.camX - VIEW_HALF - 2;
  const right = s.camX + VIEW_HALF + 2;
  for (const c of s.coinList) if (!c.taken && c.x > left && c.x < right) drawCoin(b, c.x, c.y, simTime);
  for (const e of s.enemies) if (e.alive && e.x > left && e.x < right) drawEnemy(b, e, simTime);
  squashed = squashed.filter((q) => simTime - q.t < 300);
  for (const q of squashed) drawEnemy(b, q, simTime, 0.3);
  coinPops = coinPops.filter((c) => simTime - c.t < 350);
  for (const c of coinPops) drawCoin(b, c.x, c.y + (simTime - c.t) / 200, simTime * 3);
  const dead = s.dyingMs > 0 || (s.gameOver && deathAnim >= 0);
  const blink = s.invulnerableMs > 0 && Math.floor(s.invulnerableMs / 100) % 2 === 0;
  if (!blink) drawPlayer(b, s.player, dead ? simTime - deathAnim : simTime, dead);
  b.commit();
}

// ---------------------------------------------------------------------------------------------
// HUD.

const top = stage.hud.panel(0, 0, WIDTH, 30);
const over = stage.hud.panel(70, 80, 260, 120);

function drawHud(): void {
  const s = w.platformer;
  top.draw(`${s.score}|${s.coins}|${s.lives}|${s.level}`, (ctx, tw, th) => {
    ctx.fillStyle = 'rgba(10,30,60,0.35)';
    ctx.fillRect(0, 0, tw, th);
    ctx.textBaseline = 'middle';
    drawText(ctx, `${s.score}`, 10, th / 2, { color: '#ffffff', font: 'bold 15px sans-serif', align: 'left' });
    ctx.textAlign = 'center';
    ctx.fillStyle = '#ffd23a';
    ctx.beginPath();
    ctx.arc(tw / 2 - 40, th / 2, 6, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.fillText(`× ${s.coins}`, tw / 2 - 16, th / 2);
    ctx.fillStyle = '#ff5a4f';
    ctx.fillText('♥'.repeat(s.lives) || '–', tw / 2 + 50, th / 2);
    ctx.textAlign = 'right';
    ctx.fillStyle = '#ffffff';
    ctx.font = '13px sans-serif';
    ctx.fillText(`World 1-${s.level}`, tw - 10, th / 2);
  });
  if (s.gameOver) {
    over.draw(`over|${s.score}`, (ctx, ow, oh) => {
      ctx.fillStyle = 'rgba(12,20,40,0.85)';
      roundRect(ctx, 0, 0, ow, oh, 12);
      ctx.fill();
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 24px sans-serif';
      ctx.fillText('Game over', ow / 2, 32);
      ctx.font = '16px sans-serif';
      ctx.fillText(`Score ${s.score}   (${s.maxDistance} tiles)`, ow / 2, 64);
      ctx.font = '13px sans-serif';
      ctx.fillStyle = '#c9d6ee';
      ctx.fillText('Press Enter to play again', ow / 2, 94);
    });
  } else over.visible = false;
}

// ---------------------------------------------------------------------------------------------

stage.canvas.addEventListener('pointerdown', (e) => {
  if (w.platformer.gameOver) {
    restart();
    return;
  }
  const { x, y } = stage.coords(e);
  const k = touchKey(x, y);
  touches.set(e.pointerId, k);
  if (JUMP_KEYS.has(k) && !held.has(k)) jumpLatch = true;
  held.add(k);
});
const releaseTouch = (e: PointerEvent) => {
  const k = touches.get(e.pointerId);
  if (k === undefined) return;
  touches.delete(e.pointerId);
  held.delete(k);
};
stage.canvas.addEventListener('pointerup', releaseTouch);
stage.canvas.addEventListener('pointercancel', releaseTouch);

newGame();
let acc = 0;
let lastCam = -1;
stage.loop(
  (dt) => {
    const s = w.platformer;
    if (!s.gameOver || deathAnim >= 0) {
      acc += dt;
      const FIXED = DT * 1000;
      // A small tolerance keeps exactly one step per frame at 60 Hz despite rounding.
      let n = Math.floor((acc + 1e-3) / FIXED);
      acc -= n * FIXED;
      if (acc < 0) acc = 0;
      if (n > 4) n = 4;
      for (let i = 0; i < n; i++) {
        if (s.gameOver) {
          simTime += FIXED;
          if (simTime - deathAnim > 900) deathAnim = -1;
        } else physicsStep(s);
      }
    }
    drawHud();
    return !s.gameOver || deathAnim >= 0 || lastCam < 0;
  },
  () => {
    const s = w.platformer;
    if (chunksDirty || lastCam !== s.camX) {
      chunksDirty = false;
      syncChunks();
    }
    lastCam = s.camX;
    camera.position.set(s.camX, 6.6, 19);
    camera.lookAt(s.camX, 5.8, 0);
    camera.updateMatrixWorld();
    buildDynamic();
    stage.render(scene, camera);
  },
  { frameDivisor: 2 },
);
