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

/** Width and height of the cells' bounding box. */
export function sizeOf(cells: Cell[]): [number, number] {
  return [Math.max(...cells.map((c) => c[0])) + 1, Math.max(...cells.map((c) => c[1])) + 1];
}

/**
 * Where a piece dropped over board cell (x, y) goes: the board cell of its (0,0) when its middle
 * cell lies under the pointer, kept whole on the cols × rows board.
 */
export function aimedAt(cells: Cell[], x: number, y: number, cols: number, rows: number): Cell {
  const [pw, ph] = sizeOf(cells);
  return [Math.max(0, Math.min(cols - pw, x - Math.floor((pw - 1) / 2))), Math.max(0, Math.min(rows - ph, y - Math.floor((ph - 1) / 2)))];
}

/** The preset (manifest.json): a tap on each of the 6 tray slots, the drops of each slot onto each of the 64 board cells, then the key that lifts the last placed piece. */
export const TRAY_SLOTS = 6;
export const BOARD_CELLS = 64;
export const FIRST_TAP = 0;
export const FIRST_DROP = FIRST_TAP + TRAY_SLOTS;
export const LIFT = FIRST_DROP + TRAY_SLOTS * BOARD_CELLS;

/** The preset index of the drag of tray slot `piece` onto board cell (x, y) of the 8 × 8 board. */
export const dropAction = (piece: number, x: number, y: number) => FIRST_DROP + piece * BOARD_CELLS + y * 8 + x;
