/** Piece cells of Shapes, shared by the game and its scripted agent, so both turn pieces alike. */

export type Cell = [number, number];

/** The cells moved to start at (0,0), in row-major order. */
export function normalise(cells: Cell[]): Cell[] {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return cells.map(([x, y]) => [x - mx, y - my] as Cell).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** Quarter turn clockwise. */
export function rotateCells(cells: Cell[]): Cell[] {
  const maxY = Math.max(...cells.map((c) => c[1]));
  return normalise(cells.map(([x, y]) => [maxY - y, x] as Cell));
}
