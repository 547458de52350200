import type { DecisionFeatures } from '../core/wrappers/macro-action';

/**
 * What each Snake key would lead to on the next tick, as features, from the verifier state with
 * the rules a player sees: a key turns the snake unless it is its current heading or the reverse
 * (those, and a wait, keep the heading); the head then moves one cell; a wall or the body (the
 * tail excepted, it moves away) ends the game; food makes the snake grow. The game ticks once
 * per 100 ms step at level 1 and a little faster later, so "the next cell" is what one step does.
 */

export type SnakeKey = 'up' | 'right' | 'down' | 'left' | 'noop';

/** Feature names, one block of these per key. */
export const SNAKE_FEATURES = ['dies', 'eats', 'closer', 'space', 'food_distance'] as const;
export type SnakeFeature = (typeof SNAKE_FEATURES)[number];

const DELTA = { up: [0, -1], right: [1, 0], down: [0, 1], left: [-1, 0] } as const;
const OPPOSITE = { up: 'down', down: 'up', left: 'right', right: 'left' } as const;
type Heading = keyof typeof DELTA;

interface SnakeInput {
  cols: number;
  rows: number;
  dir: Heading;
  head: [number, number];
  food: [number, number];
  body: [number, number][];
  gameOver: boolean;
}

function inputOf(info: unknown): SnakeInput {
  const s = (info as { state?: Partial<SnakeInput> } | undefined)?.state;
  if (!s || typeof s.cols !== 'number' || !Array.isArray(s.body) || !Array.isArray(s.head) || !Array.isArray(s.food) || !(s.dir && s.dir in DELTA)) {
    throw new Error('snake afterstates read info.state.{cols, rows, dir, head, food, body} (the Snake verifier state), and this state lacks them');
  }
  return s as SnakeInput;
}

/**
 * Afterstate features of each key, in the order of `keys` (the game's preset order):
 * [keys × SNAKE_FEATURES] row-major, each about 0..1. `space` is the free area reachable from the
 * new head, capped at twice the snake's length and divided by that cap (below 1: a dead end
 * the snake may not fit in). At game over every feature is 0.
 */
export function snakeAfterstates(keys: readonly SnakeKey[]): DecisionFeatures {
  const perDecision = SNAKE_FEATURES.length;
  return {
    perDecision,
    names: SNAKE_FEATURES,
    encode(info) {
      const out = new Float32Array(keys.length * perDecision);
      const s = inputOf(info);
      if (s.gameOver) return out;
      const { cols, rows } = s;
      const [hx, hy] = s.head;
      keys.forEach((key, k) => {
        const heading: Heading = key === 'noop' || key === OPPOSITE[s.dir] ? s.dir : key;
        const x = hx + DELTA[heading][0];
        const y = hy + DELTA[heading][1];
        const eats = x === s.food[0] && y === s.food[1];
        // The body after the move: the new head, and the tail gone unless the snake grows.
        const body = [[x, y], ...(eats ? s.body : s.body.slice(0, -1))];
        const occupied = new Set(body.slice(1).map(([bx, by]) => by * cols + bx));
        const dies = x < 0 || y < 0 || x >= cols || y >= rows || occupied.has(y * cols + x);
        const cap = 2 * body.length;
        const dist = (px: number, py: number) => Math.abs(px - s.food[0]) + Math.abs(py - s.food[1]);
        const row = out.subarray(k * perDecision, (k + 1) * perDecision);
        row[0] = dies ? 1 : 0;
        row[1] = eats ? 1 : 0;
        row[2] = dist(x, y) < dist(hx, hy) ? 1 : 0;
        row[3] = dies ? 0 : Math.min(reachable(x, y, cols, rows, occupied, cap), cap) / cap;
        row[4] = dist(x, y) / (cols + rows);
      });
      return out;
    },
  };
}

/** Cells reachable from (x0, y0) through free cells, counting up to `cap`. */
function reachable(x0: number, y0: number, cols: number, rows: number, occupied: Set<number>, cap: number): number {
  const seen = new Set([y0 * cols + x0]);
  const stack: [number, number][] = [[x0, y0]];
  while (stack.length > 0 && seen.size < cap) {
    const [x, y] = stack.pop()!;
    for (const [dx, dy] of Object.values(DELTA)) {
      const nx = x + dx;
      const ny = y + dy;
      const key = ny * cols + nx;
      if (nx >= 0 && ny >= 0 && nx < cols && ny < rows && !occupied.has(key) && !seen.has(key)) {
        seen.add(key);
        stack.push([nx, ny]);
      }
    }
  }
  return seen.size;
}
