import type { DecisionFeatures } from '../../gym/core';
import { DELTA, advance, reachable, turned, type Cell, type Dir } from './logic';

/**
 * What each Snake key would lead to on the next tick, as features, from the verifier state with
 * the game's own rules (logic.ts): a key turns the snake unless it is its current heading or the
 * reverse (those, and a wait, keep the heading); the head then moves one cell; a wall or the body
 * (the tail excepted, it moves away) ends the game; food makes the snake grow. The game ticks once
 * per 100 ms step at level 1 and a little faster later, so "the next cell" is what one step does.
 */

export type SnakeKey = Dir | 'noop';

/** Feature names, one block of these per key. */
export const SNAKE_FEATURES = ['dies', 'eats', 'closer', 'space', 'food_distance'] as const;
export type SnakeFeature = (typeof SNAKE_FEATURES)[number];

interface SnakeInput {
  cols: number;
  rows: number;
  dir: Dir;
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

const cell = ([x, y]: readonly [number, number]): Cell => ({ x, y });

/**
 * Afterstate features of each key, in the order of `keys` (the game's preset order):
 * [keys × SNAKE_FEATURES] row-major, each about 0..1. `space` is the free area reachable from the
 * new head, capped at twice the snake's length and divided by that cap (below 1: a dead end
 * the snake may not fit in; the scripted agent's test). At game over every feature is 0.
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
      const body = s.body.map(cell);
      const food = cell(s.food);
      const dist = (c: Cell) => Math.abs(c.x - food.x) + Math.abs(c.y - food.y);
      keys.forEach((key, k) => {
        const { head, grows, dies } = advance(body, key === 'noop' ? s.dir : turned(s.dir, key), food, cols, rows);
        // The body after the move, but for the new head: the tail gone unless the snake grows.
        const rest = grows ? body : body.slice(0, -1);
        const occupied = new Set(rest.map((c) => c.y * cols + c.x));
        const cap = 2 * (rest.length + 1);
        const row = out.subarray(k * perDecision, (k + 1) * perDecision);
        row[0] = dies ? 1 : 0;
        row[1] = grows ? 1 : 0;
        row[2] = dist(head) < dist(body[0]) ? 1 : 0;
        row[3] = dies ? 0 : Math.min(reachable(head, cols, rows, occupied, cap), cap) / cap;
        row[4] = dist(head) / (cols + rows);
      });
      return out;
    },
  };
}
