/**
 * Snake's rules, shared by the game, its scripted agent and its afterstate features
 * (decisions.ts): headings, what one tick does to the snake, and the free area a head can reach.
 */

export type Dir = 'up' | 'down' | 'left' | 'right';
export interface Cell {
  x: number;
  y: number;
}

export const DELTA: Record<Dir, Cell> = { up: { x: 0, y: -1 }, down: { x: 0, y: 1 }, left: { x: -1, y: 0 }, right: { x: 1, y: 0 } };
export const OPPOSITE: Record<Dir, Dir> = { up: 'down', down: 'up', left: 'right', right: 'left' };

/** The heading after asking for `dir` while heading `current`: a turn, unless it would reverse onto the neck. */
export function turned(current: Dir, dir: Dir): Dir {
  return dir === OPPOSITE[current] ? current : dir;
}

/**
 * One tick with heading `dir` (body head first): where the head goes, whether it eats the food
 * there, and whether it dies on a wall or the body. The tail moves away this tick unless the
 * snake grows, so moving into it is allowed.
 */
export function advance(body: readonly Cell[], dir: Dir, food: Cell, cols: number, rows: number): { head: Cell; grows: boolean; dies: boolean } {
  const d = DELTA[dir];
  const head = { x: body[0].x + d.x, y: body[0].y + d.y };
  const grows = head.x === food.x && head.y === food.y;
  const bodyToCheck = grows ? body : body.slice(0, -1);
  const hitsWall = head.x < 0 || head.y < 0 || head.x >= cols || head.y >= rows;
  const hitsSelf = bodyToCheck.some((c) => c.x === head.x && c.y === head.y);
  return { head, grows, dies: hitsWall || hitsSelf };
}

/**
 * Cells reachable from `from` through cells inside the board and not in `occupied` (keys
 * y·cols + x), counted up to `cap`: `from` itself counts, and the count may pass `cap` by the
 * last cell's neighbours, so callers take min(count, cap), which any search order gives alike.
 */
export function reachable(from: Cell, cols: number, rows: number, occupied: ReadonlySet<number>, cap: number): number {
  const seen = new Set([from.y * cols + from.x]);
  const stack: Cell[] = [from];
  while (stack.length > 0 && seen.size < cap) {
    const { x, y } = stack.pop()!;
    for (const d of Object.values(DELTA)) {
      const nx = x + d.x;
      const ny = y + d.y;
      const key = ny * cols + nx;
      if (nx >= 0 && ny >= 0 && nx < cols && ny < rows && !occupied.has(key) && !seen.has(key)) {
        seen.add(key);
        stack.push({ x: nx, y: ny });
      }
    }
  }
  return seen.size;
}
