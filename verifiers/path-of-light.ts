import { defineVerifier } from './define';

interface LightGlobals {
  pathOfLight?: {
    n: number;
    open: number[];
    lit: number[];
    litCount: number;
    player: { x: number; y: number };
    exit: { x: number; y: number };
    energy: number;
    energyMax: number;
    shortest: number;
    level: number;
    score: number;
    moves: number;
    exitsReached: number;
    gameOver: boolean;
  };
}

export interface PathOfLightVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  /** The maze is n×n cells. */
  n: number;
  /** Open passages per cell, row-major (N=1, E=2, S=4, W=8). */
  open: number[];
  /** 1 where the orb has lit the cell, row-major. */
  lit: number[];
  litCount: number;
  player: [number, number];
  exit: [number, number];
  energy: number;
  energyMax: number;
  exitsReached: number;
  [key: string]: unknown;
}

export default defineVerifier<PathOfLightVerifierState>({
  gameId: 'path-of-light',
  read(win) {
    const s = (win as unknown as LightGlobals).pathOfLight;
    if (!s) return null;
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      n: s.n,
      open: s.open.slice(),
      lit: s.lit.slice(),
      litCount: s.litCount,
      player: [s.player.x, s.player.y],
      exit: [s.exit.x, s.exit.y],
      energy: s.energy,
      energyMax: s.energyMax,
      exitsReached: s.exitsReached,
    };
  },
  features: {
    names: [
      'open_up',
      'open_right',
      'open_down',
      'open_left',
      'lit_up',
      'lit_right',
      'lit_down',
      'lit_left',
      'player_x',
      'player_y',
      'exit_dx',
      'exit_dy',
      'energy_frac',
      'maze_size',
      'level',
    ],
    encode(s) {
      const [x, y] = s.player;
      const m = s.open[y * s.n + x] ?? 0;
      const DX = [0, 1, 0, -1];
      const DY = [-1, 0, 1, 0];
      const out: number[] = [];
      for (let d = 0; d < 4; d++) out.push((m >> d) & 1);
      for (let d = 0; d < 4; d++) {
        const nx = x + DX[d];
        const ny = y + DY[d];
        out.push(nx >= 0 && ny >= 0 && nx < s.n && ny < s.n && s.lit[ny * s.n + nx] ? 1 : 0);
      }
      out.push(x / s.n, y / s.n, (s.exit[0] - x) / s.n, (s.exit[1] - y) / s.n, s.energyMax ? s.energy / s.energyMax : 0, s.n / 16, s.level);
      return out;
    },
  },
  // up, right, down, left (the preset's order, the passage bits N=1, E=2, S=4, W=8): a wall is a bump the game ignores.
  actionMask(s) {
    const m = s.open[s.player[1] * s.n + s.player[0]] ?? 0;
    return [0, 1, 2, 3].map((d) => (m >> d) & 1);
  },
});
