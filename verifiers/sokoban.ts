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

/** The fixed frame the game draws every level in (games/sokoban/logic.ts, FRAME), centred by whole cells. */
const FRAME = 11;
const offsetOf = (s: { w: number; h: number }): [number, number] => [Math.floor((FRAME - s.w) / 2), Math.floor((FRAME - s.h) / 2)];

const DIRECTIONS: readonly (readonly [number, number])[] = [
  [0, -1],
  [1, 0],
  [0, 1],
  [-1, 0],
];

/** Floor cells the player reaches without pushing, as `x,y` keys. */
function reachable(s: SokobanVerifierState, floor: (x: number, y: number) => boolean, box: (x: number, y: number) => boolean): Set<string> {
  const seen = new Set<string>([`${s.player[0]},${s.player[1]}`]);
  const queue = [s.player];
  for (let i = 0; i < queue.length; i++) {
    const [x, y] = queue[i];
    for (const [dx, dy] of DIRECTIONS) {
      const key = `${x + dx},${y + dy}`;
      if (!floor(x + dx, y + dy) || box(x + dx, y + dy) || seen.has(key)) continue;
      seen.add(key);
      queue.push([x + dx, y + dy]);
    }
  }
  return seen;
}

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
    // The 11×11 frame the game draws in (a smaller level centred in it by whole cells, as on
    // screen and in the push preset) of cell codes: 0 outside/wall, 1 floor, 2 goal, 3 box,
    // 4 box on goal, 5 player (6 on a goal); then scalars.
    names: [
      ...Array.from({ length: FRAME * FRAME }, (_, i) => `cell_${Math.floor(i / FRAME)}_${i % FRAME}`),
      'moves_left',
      'lives',
      'level',
      'boxes_on_goals',
      'box_count',
    ],
    encode(s) {
      const [ox, oy] = offsetOf(s);
      const grid = new Array<number>(FRAME * FRAME).fill(0);
      const at = (x: number, y: number) => (y + oy) * FRAME + x + ox;
      for (let y = 0; y < s.h; y++) {
        for (let x = 0; x < s.w; x++) {
          const ch = s.map[y][x];
          grid[at(x, y)] = ch === '#' ? 0 : ch === '.' ? 2 : 1;
        }
      }
      for (const [x, y] of s.boxes) grid[at(x, y)] += 2;
      grid[at(s.player[0], s.player[1])] += 4;
      return [...grid.map((v) => v / 6), (s.moveLimit - s.moves) / 100, s.lives / 3, s.level / 10, s.boxesOnGoals / 6, s.boxes.length / 6];
    },
  },
  // The push preset: for each interior cell of the frame, row by row, a drag towards up, right,
  // down, left; then restart level. A drag pushes the box it starts on once the player has walked
  // round to it, and the game ignores it when no box is there, the cell beyond is a wall or a box,
  // or the cell behind cannot be reached; a restart always counts.
  // verifiers/self-contained.test.ts checks this against the game's own rules.
  actionMask(s) {
    const [ox, oy] = offsetOf(s);
    const floor = (x: number, y: number) => s.map[y]?.[x] === ' ' || s.map[y]?.[x] === '.';
    const boxes = new Set(s.boxes.map(([x, y]) => `${x},${y}`));
    const box = (x: number, y: number) => boxes.has(`${x},${y}`);
    const reach = reachable(s, floor, box);
    const mask: number[] = [];
    for (let fy = 1; fy < FRAME - 1; fy++) {
      for (let fx = 1; fx < FRAME - 1; fx++) {
        const x = fx - ox;
        const y = fy - oy;
        for (const [dx, dy] of DIRECTIONS) {
          const pushes = box(x, y) && floor(x + dx, y + dy) && !box(x + dx, y + dy) && reach.has(`${x - dx},${y - dy}`);
          mask.push(pushes ? 1 : 0);
        }
      }
    }
    mask.push(1);
    return mask;
  },
});
