import type { ScriptedPolicy } from '../../gym/agents';
import type { SnakeVerifierState } from '../../verifiers/snake';
import { reachable } from './logic';

/**
 * Greedy snake: among the moves that do not crash on the next tick, prefer the one whose
 * cell has the most free space reachable (flood fill), then the one closest to the food.
 */
const DIRS = [
  { name: 'up', dx: 0, dy: -1, index: 0 },
  { name: 'right', dx: 1, dy: 0, index: 1 },
  { name: 'down', dx: 0, dy: 1, index: 2 },
  { name: 'left', dx: -1, dy: 0, index: 3 },
] as const;
const OPPOSITE: Record<string, string> = { up: 'down', down: 'up', left: 'right', right: 'left' };

const policy: ScriptedPolicy<SnakeVerifierState> = (s) => {
  const { cols, rows } = s;
  const occupied = new Set(s.body.slice(0, -1).map(([x, y]) => y * cols + x));
  const free = (x: number, y: number) => x >= 0 && y >= 0 && x < cols && y < rows && !occupied.has(y * cols + x);
  const [hx, hy] = s.head;
  const options = DIRS.filter((d) => d.name !== OPPOSITE[s.dir] && free(hx + d.dx, hy + d.dy)).map((d) => {
    const nx = hx + d.dx;
    const ny = hy + d.dy;
    return {
      d,
      space: Math.min(reachable({ x: nx, y: ny }, cols, rows, occupied, s.length * 2), s.length * 2),
      dist: Math.abs(nx - s.food[0]) + Math.abs(ny - s.food[1]),
    };
  });
  if (options.length === 0) return 4;
  options.sort((a, b) => b.space - a.space || a.dist - b.dist || a.d.index - b.d.index);
  return options[0].d.index;
};
export default policy;
