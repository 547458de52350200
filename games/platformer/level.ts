import { ROWS, TILE } from './physics';

/**
 * Level generation for the platformer: the world is built section by section ahead of the
 * player from Math.random (seeded by the runtime), so the same seed always gives the same
 * course. Difficulty grows with distance: wider gaps, taller pipes, more and faster enemies.
 */

export interface EnemySpawn {
  x: number;
  y: number;
  kind: 'walker' | 'spiky';
  speed: number;
}

export interface LevelState {
  /** Columns of tile ids, bottom (y = 0) first. */
  cols: number[][];
  /** Height of the ground surface at the end of the generated course. */
  groundH: number;
  enemies: EnemySpawn[];
  /** Coin centres. */
  coins: [number, number][];
}

export const START_FLAT = 14;

const rand = () => Math.random();
const randInt = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

function column(h: number): number[] {
  const c = new Array<number>(ROWS).fill(TILE.EMPTY);
  for (let y = 0; y < h; y++) c[y] = TILE.GROUND;
  return c;
}

function flat(L: LevelState, n: number): void {
  for (let i = 0; i < n; i++) L.cols.push(column(L.groundH));
}

function spawnEnemy(L: LevelState, x: number, d: number): void {
  const spiky = d > 0.35 && rand() < 0.15 + 0.25 * d;
  L.enemies.push({ x: x + 0.5, y: L.groundH, kind: spiky ? 'spiky' : 'walker', speed: 1.6 + 1.4 * d + rand() * 0.6 });
}

export function newLevel(): LevelState {
  const L: LevelState = { cols: [], groundH: 2, enemies: [], coins: [] };
  flat(L, START_FLAT);
  return L;
}

/** Appends one randomly chosen section; `d` in [0, 1] is the difficulty at this point. */
export function generateSection(L: LevelState, d: number): void {
  const x0 = L.cols.length;
  const kinds: [string, number][] = [
    ['flat', 3],
    ['gap', 2 + 2 * d],
    ['pipe', 1.5],
    ['blocks', 2],
    ['step', 1.5],
    ['stairs', 0.8 + d],
    ['platforms', d > 0.25 ? 1.5 * d : 0],
  ];
  const total = kinds.reduce((s, [, w]) => s + w, 0);
  let r = rand() * total;
  let kind = 'flat';
  for (const [k, w] of kinds) {
    r -= w;
    if (r < 0) {
      kind = k;
      break;
    }
  }
  const enemyChance = 0.3 + 0.5 * d;
  switch (kind) {
    case 'flat': {
      const n = randInt(5, 9);
      flat(L, n);
      if (rand() < 0.45) {
        const cy = L.groundH + randInt(1, 2) + 0.5;
        const start = x0 + randInt(1, 2);
        for (let i = 0; i < randInt(3, 5); i++) L.coins.push([start + i + 0.5, cy]);
      }
      if (rand() < enemyChance) spawnEnemy(L, x0 + randInt(3, n - 1), d);
      if (rand() < d * 0.6) spawnEnemy(L, x0 + randInt(2, n - 1), d);
      break;
    }
    case 'gap': {
      flat(L, 2);
      const width = Math.min(4, 1 + Math.floor(rand() * (1.6 + 2.6 * d)));
      const gx = L.cols.length;
      for (let i = 0; i < width; i++) L.cols.push(column(0));
      if (rand() < 0.5) {
        for (let i = 0; i < width; i++) L.coins.push([gx + i + 0.5, L.groundH + 2.5 + (width > 2 && i > 0 && i < width - 1 ? 0.5 : 0)]);
      }
      // Sometimes the far side is higher or lower.
      if (d > 0.2 && rand() < 0.35) L.groundH = Math.max(1, Math.min(4, L.groundH + (rand() < 0.5 ? -1 : 1)));
      flat(L, 3);
      break;
    }
    case 'pipe': {
      flat(L, randInt(2, 3));
      const h = d > 0.3 && rand() < 0.5 ? 3 : 2;
      for (let i = 0; i < 2; i++) {
        const c = column(L.groundH);
        for (let y = L.groundH; y < L.groundH + h; y++) c[y] = TILE.PIPE;
        L.cols.push(c);
      }
      const n = randInt(4, 6);
      flat(L, n);
      if (rand() < enemyChance) spawnEnemy(L, L.cols.length - randInt(1, 2), d);
      break;
    }
    case 'blocks': {
      const n = randInt(6, 8);
      flat(L, n);
      const len = randInt(3, 5);
      const bx = x0 + randInt(1, n - len - 1);
      const by = L.groundH + 3;
      const q = randInt(0, len - 1);
      for (let i = 0; i < len; i++) {
        L.cols[bx + i][by] = i === q || rand() < 0.2 ? TILE.QUESTION : TILE.BRICK;
        if (rand() < 0.5) L.coins.push([bx + i + 0.5, by + 1.5]);
      }
      if (rand() < enemyChance) spawnEnemy(L, bx + randInt(0, len - 1), d);
      break;
    }
    case 'step': {
      flat(L, randInt(2, 3));
      const up = L.groundH <= 2 || (L.groundH < 5 && rand() < 0.5);
      L.groundH = Math.max(1, Math.min(5, L.groundH + (up ? 1 : -1) * randInt(1, 2)));
      const n = randInt(4, 7);
      flat(L, n);
      if (rand() < enemyChance) spawnEnemy(L, L.cols.length - randInt(1, 2), d);
      break;
    }
    case 'stairs': {
      flat(L, 2);
      const h = randInt(2, 3 + Math.round(d));
      for (let i = 1; i <= h; i++) {
        const c = column(L.groundH);
        for (let y = L.groundH; y < L.groundH + i; y++) c[y] = TILE.STONE;
        L.cols.push(c);
      }
      if (d > 0.45 && rand() < 0.5) {
        // A jump from the top of the stairs over a short gap.
        const width = randInt(1, 2);
        for (let i = 0; i < width; i++) L.cols.push(column(0));
        const c = column(L.groundH);
        for (let y = L.groundH; y < L.groundH + h - 1; y++) c[y] = TILE.STONE;
        L.cols.push(c);
      } else {
        for (let i = h - 1; i >= 1; i--) {
          const c = column(L.groundH);
          for (let y = L.groundH; y < L.groundH + i; y++) c[y] = TILE.STONE;
          L.cols.push(c);
        }
      }
      flat(L, 3);
      break;
    }
    case 'platforms': {
      flat(L, 2);
      const segments = randInt(1, 2);
      for (let s = 0; s < segments; s++) {
        const gap = randInt(2, 3);
        for (let i = 0; i < gap; i++) L.cols.push(column(0));
        const py = L.groundH + randInt(0, 1);
        const len = randInt(2, 3);
        for (let i = 0; i < len; i++) {
          const c = column(0);
          c[py] = TILE.BRICK;
          L.cols.push(c);
          L.coins.push([L.cols.length - 1 + 0.5, py + 1.5]);
        }
      }
      for (let i = 0; i < randInt(2, 3); i++) L.cols.push(column(0));
      flat(L, 3);
      break;
    }
  }
}
