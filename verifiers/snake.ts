import { defineVerifier } from './define';
import { readGlobal } from './read-global';

interface Cell {
  x: number;
  y: number;
}
interface SnakeGlobals {
  cols: number;
  rows: number;
  body: Cell[];
  dir: 'up' | 'down' | 'left' | 'right';
  food: Cell;
  score: number;
  level: number;
  ticks: number;
  gameOver: boolean;
}

const DIRS = ['up', 'right', 'down', 'left'] as const;

export interface SnakeVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  length: number;
  ticks: number;
  cols: number;
  rows: number;
  dir: (typeof DIRS)[number];
  head: [number, number];
  food: [number, number];
  body: [number, number][];
  [key: string]: unknown;
}

export default defineVerifier<SnakeVerifierState>({
  gameId: 'snake',
  read: readGlobal('snake', (s: SnakeGlobals) => ({
    score: s.score,
    gameOver: s.gameOver,
    level: s.level,
    length: s.body.length,
    ticks: s.ticks,
    cols: s.cols,
    rows: s.rows,
    dir: s.dir,
    head: [s.body[0].x, s.body[0].y],
    food: [s.food.x, s.food.y],
    body: s.body.map((c) => [c.x, c.y] as [number, number]),
  })),
  features: {
    names: [
      'head_x',
      'head_y',
      'food_dx',
      'food_dy',
      'dir_up',
      'dir_right',
      'dir_down',
      'dir_left',
      'danger_ahead',
      'danger_left',
      'danger_right',
      'length',
      'level',
    ],
    encode(s) {
      const occupied = new Set(s.body.slice(0, -1).map(([x, y]) => y * s.cols + x));
      const blocked = (x: number, y: number) => x < 0 || y < 0 || x >= s.cols || y >= s.rows || occupied.has(y * s.cols + x);
      const d = DIRS.indexOf(s.dir);
      const step = (k: number): [number, number] => {
        const dir = DIRS[(k + 4) % 4];
        const [x, y] = s.head;
        return dir === 'up' ? [x, y - 1] : dir === 'down' ? [x, y + 1] : dir === 'left' ? [x - 1, y] : [x + 1, y];
      };
      return [
        s.head[0] / s.cols,
        s.head[1] / s.rows,
        (s.food[0] - s.head[0]) / s.cols,
        (s.food[1] - s.head[1]) / s.rows,
        ...DIRS.map((_, k) => (k === d ? 1 : 0)),
        blocked(...step(d)) ? 1 : 0,
        blocked(...step(d - 1)) ? 1 : 0,
        blocked(...step(d + 1)) ? 1 : 0,
        s.length / (s.cols * s.rows),
        s.level,
      ];
    },
  },
});
