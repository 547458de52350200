import { defineVerifier } from './define';

interface Body {
  x: number;
  y: number;
  vx: number;
  vy: number;
  w: number;
  h: number;
  onGround: boolean;
}
interface PlatformerGlobals {
  platformer?: {
    score: number;
    gameOver: boolean;
    lives: number;
    level: number;
    distance: number;
    maxDistance: number;
    coins: number;
    stomps: number;
    deaths: number;
    player: Body & { jumpBuffer: number; coyote: number; facing: 1 | -1 };
    dyingMs: number;
    invulnerableMs: number;
    enemies: (Body & { id: number; kind: 'walker' | 'spiky'; active: boolean; alive: boolean; speed: number })[];
    coinList: { x: number; y: number; taken: boolean }[];
    cols: number[][];
    camX: number;
    minX: number;
    frames: number;
  };
}

export interface PlatformerEnemy {
  id: number;
  kind: 'walker' | 'spiky';
  x: number;
  y: number;
  vx: number;
  vy: number;
  onGround: boolean;
  active: boolean;
}

export interface PlatformerVerifierState {
  score: number;
  gameOver: boolean;
  lives: number;
  level: number;
  distance: number;
  maxDistance: number;
  coins: number;
  stomps: number;
  deaths: number;
  /** The player is in the short pause after losing a life. */
  dying: boolean;
  invulnerableMs: number;
  player: { x: number; y: number; vx: number; vy: number; onGround: boolean; facing: 1 | -1; jumpBuffer: number; coyote: number };
  /** The left edge the player cannot pass. */
  minX: number;
  camX: number;
  /**
   * The course around the player: `tiles[i]` is column `x0 + i`, bottom (y = 0) first.
   * 0 empty, 1 ground, 2 brick, 3 ?-block, 4 used block, 5 pipe, 6 stone. Below y = 0 is a pit.
   */
  view: { x0: number; tiles: number[][] };
  /** Living enemies within the view. */
  enemies: PlatformerEnemy[];
  /** Coin centres within the view. */
  coinsNear: [number, number][];
  frames: number;
  [key: string]: unknown;
}

export const VIEW_BEHIND = 5;
export const VIEW_WIDTH = 26;
const ROWS = 14;
const AHEAD = 14;

const names: string[] = ['vx', 'vy', 'on_ground', 'y', 'x_frac'];
for (let dx = -1; dx < AHEAD - 1; dx++) names.push(`floor_dy_${dx}`, `pit_${dx}`, `wall_${dx}`);
for (let i = 0; i < 3; i++) names.push(`enemy${i}_dx`, `enemy${i}_dy`, `enemy${i}_vx`, `enemy${i}_spiky`, `enemy${i}_present`);
names.push('lives', 'invulnerable', 'dying', 'coin_dx', 'coin_dy');

export default defineVerifier<PlatformerVerifierState>({
  gameId: 'platformer',
  read(win) {
    const s = (win as unknown as PlatformerGlobals).platformer;
    if (!s) return null;
    const p = s.player;
    const x0 = Math.floor(p.x) - VIEW_BEHIND;
    const tiles: number[][] = [];
    for (let i = 0; i < VIEW_WIDTH; i++) {
      const c = s.cols[x0 + i];
      tiles.push(c ? c.slice(0, ROWS) : new Array<number>(ROWS).fill(x0 + i < 0 ? 1 : 0));
    }
    const inView = (x: number) => x >= x0 && x < x0 + VIEW_WIDTH;
    return {
      score: s.score,
      gameOver: s.gameOver,
      lives: s.lives,
      level: s.level,
      distance: s.distance,
      maxDistance: s.maxDistance,
      coins: s.coins,
      stomps: s.stomps,
      deaths: s.deaths,
      dying: s.dyingMs > 0,
      invulnerableMs: Math.round(s.invulnerableMs),
      player: { x: p.x, y: p.y, vx: p.vx, vy: p.vy, onGround: p.onGround, facing: p.facing, jumpBuffer: p.jumpBuffer, coyote: p.coyote },
      minX: s.minX,
      camX: s.camX,
      view: { x0, tiles },
      enemies: s.enemies
        .filter((e) => e.alive && inView(e.x))
        .map((e) => ({ id: e.id, kind: e.kind, x: e.x, y: e.y, vx: e.vx, vy: e.vy, onGround: e.onGround, active: e.active })),
      coinsNear: s.coinList.filter((c) => !c.taken && inView(c.x)).map((c) => [c.x, c.y] as [number, number]),
      frames: s.frames,
    };
  },
  features: {
    names,
    encode(s) {
      const p = s.player;
      const out = [p.vx / 7.5, p.vy / 20, p.onGround ? 1 : 0, p.y / ROWS, p.x - Math.floor(p.x)];
      const px = Math.floor(p.x);
      for (let dx = -1; dx < AHEAD - 1; dx++) {
        const col = s.view.tiles[px + dx - s.view.x0] ?? [];
        // Highest floor at most 1.5 tiles above the feet, or a pit.
        let floor = -1;
        for (let y = Math.min(ROWS - 1, Math.floor(p.y + 0.5)); y >= 0; y--)
          if (col[y]) {
            floor = y + 1;
            break;
          }
        const wall = col[Math.floor(p.y + 0.5)] ? 1 : 0;
        out.push(floor < 0 ? -1 : (floor - p.y) / 5, floor < 0 ? 1 : 0, wall);
      }
      const near = s.enemies
        .filter((e) => e.x > p.x - 3)
        .sort((a, b) => Math.abs(a.x - p.x) - Math.abs(b.x - p.x))
        .slice(0, 3);
      for (let i = 0; i < 3; i++) {
        const e = near[i];
        out.push(e ? (e.x - p.x) / 10 : 0, e ? (e.y - p.y) / 5 : 0, e ? e.vx / 4 : 0, e && e.kind === 'spiky' ? 1 : 0, e ? 1 : 0);
      }
      const coin = s.coinsNear.filter(([x]) => x > p.x - 1).sort((a, b) => a[0] - b[0])[0];
      out.push(s.lives / 3, s.invulnerableMs > 0 ? 1 : 0, s.dying ? 1 : 0, coin ? (coin[0] - p.x) / 10 : 0, coin ? (coin[1] - p.y) / 5 : 0);
      return out;
    },
  },
});
