import { defineVerifier } from './define';
import { readGlobal } from './read-global';

interface SokobanGlobals {
  level: number;
  w: number;
  h: number;
  walls: boolean[];
  goals: number[];
  boxes: number[];
  player: number;
  scored: boolean[];
  moves: number;
  pushes: number;
  moveLimit: number;
  lives: number;
  score: number;
  solved: number;
  gameOver: boolean;
  lastLoss: string;
  restarts: number;
}

export interface SokobanVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  lives: number;
  /** Levels solved so far. */
  solved: number;
  w: number;
  h: number;
  /** Rows of the level: '#' wall, ' ' floor, '.' goal (boxes and player are listed separately). */
  map: string[];
  /** [x, y] of each box; the index is the box's identity. */
  boxes: [number, number][];
  goals: [number, number][];
  player: [number, number];
  boxesOnGoals: number;
  moves: number;
  moveLimit: number;
  pushes: number;
  lastLoss: string;
  restarts: number;
  [key: string]: unknown;
}

const MAX = 11;

export default defineVerifier<SokobanVerifierState>({
  gameId: 'sokoban',
  read: readGlobal('sokoban', (s: SokobanGlobals) => {
    const xy = (c: number): [number, number] => [c % s.w, Math.floor(c / s.w)];
    const goals = new Set(s.goals);
    const map: string[] = [];
    for (let y = 0; y < s.h; y++) {
      let row = '';
      for (let x = 0; x < s.w; x++) row += s.walls[y * s.w + x] ? '#' : goals.has(y * s.w + x) ? '.' : ' ';
      map.push(row);
    }
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      lives: s.lives,
      solved: s.solved,
      w: s.w,
      h: s.h,
      map,
      boxes: s.boxes.map(xy),
      goals: s.goals.map(xy),
      player: xy(s.player),
      boxesOnGoals: s.boxes.filter((b) => goals.has(b)).length,
      moves: s.moves,
      moveLimit: s.moveLimit,
      pushes: s.pushes,
      lastLoss: s.lastLoss,
      restarts: s.restarts,
    };
  }),
  features: {
    // An 11×11 grid (levels are at most that size, anchored top-left) of cell codes:
    // 0 outside/wall, 1 floor, 2 goal, 3 box, 4 box on goal, 5 player (6 on a goal); then scalars.
    names: [
      ...Array.from({ length: MAX * MAX }, (_, i) => `cell_${Math.floor(i / MAX)}_${i % MAX}`),
      'moves_left',
      'lives',
      'level',
      'boxes_on_goals',
      'box_count',
    ],
    encode(s) {
      const grid = new Array<number>(MAX * MAX).fill(0);
      for (let y = 0; y < Math.min(MAX, s.h); y++) {
        for (let x = 0; x < Math.min(MAX, s.w); x++) {
          const ch = s.map[y][x];
          grid[y * MAX + x] = ch === '#' ? 0 : ch === '.' ? 2 : 1;
        }
      }
      for (const [x, y] of s.boxes) if (x < MAX && y < MAX) grid[y * MAX + x] += 2;
      const [px, py] = s.player;
      if (px < MAX && py < MAX) grid[py * MAX + px] += 4;
      return [...grid.map((v) => v / 6), (s.moveLimit - s.moves) / 100, s.lives / 3, s.level / 10, s.boxesOnGoals / 6, s.boxes.length / 6];
    },
  },
  // up, right, down, left, restart level: the player does not walk into a wall, nor push a box
  // into a wall or another box, and the game ignores such a move; a restart always counts.
  // verifiers/self-contained.test.ts checks this against the game's own moves.
  actionMask(s) {
    const [px, py] = s.player;
    const wall = (x: number, y: number) => s.map[y]?.[x] !== ' ' && s.map[y]?.[x] !== '.';
    const box = (x: number, y: number) => s.boxes.some(([bx, by]) => bx === x && by === y);
    const walks = ([dx, dy]: readonly [number, number]) => {
      const x = px + dx;
      const y = py + dy;
      if (wall(x, y)) return 0;
      return box(x, y) && (wall(x + dx, y + dy) || box(x + dx, y + dy)) ? 0 : 1;
    };
    return [...DIRECTIONS.map(walks), 1];
  },
});

const DIRECTIONS: readonly (readonly [number, number])[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];
