/**
 * The rules of 2048 as pure functions on a grid of tile values (0 = empty), shared by the
 * game, its scripted agent and its tests.
 */

export type Grid = number[][];
export type Dir = 'up' | 'right' | 'down' | 'left';
export const DIRS: readonly Dir[] = ['up', 'right', 'down', 'left'];

/** One tile's journey in a move: where it was, where it ends, and its value before merging. */
export interface TileMove {
  fromR: number;
  fromC: number;
  toR: number;
  toC: number;
  value: number;
}

export interface SlideResult {
  grid: Grid;
  moved: boolean;
  /** Points the move scores: the sum of the tiles that merges create. */
  gained: number;
  /** Every tile of the old grid, moving or not. */
  tiles: TileMove[];
  /** Cells holding a tile made by a merge in this move. */
  merged: { r: number; c: number; value: number }[];
}

export const emptyGrid = (size: number): Grid => Array.from({ length: size }, () => new Array<number>(size).fill(0));
export const cloneGrid = (g: Grid): Grid => g.map((row) => row.slice());

/** The cells of line `i` for a move in `dir`, ordered from the edge tiles slide towards. */
function lineCells(size: number, dir: Dir, i: number): [number, number][] {
  const cells: [number, number][] = [];
  for (let k = 0; k < size; k++) {
    if (dir === 'left') cells.push([i, k]);
    else if (dir === 'right') cells.push([i, size - 1 - k]);
    else if (dir === 'up') cells.push([k, i]);
    else cells.push([size - 1 - k, i]);
  }
  return cells;
}

export function slide(grid: Grid, dir: Dir): SlideResult {
  const size = grid.length;
  const out = emptyGrid(size);
  const tiles: TileMove[] = [];
  const merged: SlideResult['merged'] = [];
  let gained = 0;
  let moved = false;
  for (let i = 0; i < size; i++) {
    const cells = lineCells(size, dir, i);
    let target = -1;
    let targetMergeable = false;
    for (const [r, c] of cells) {
      const v = grid[r][c];
      if (!v) continue;
      if (target >= 0 && targetMergeable) {
        const [tr, tc] = cells[target];
        if (out[tr][tc] === v) {
          out[tr][tc] = v * 2;
          gained += v * 2;
          targetMergeable = false;
          merged.push({ r: tr, c: tc, value: v * 2 });
          tiles.push({ fromR: r, fromC: c, toR: tr, toC: tc, value: v });
          moved = true;
          continue;
        }
      }
      target++;
      const [tr, tc] = cells[target];
      out[tr][tc] = v;
      targetMergeable = true;
      if (tr !== r || tc !== c) moved = true;
      tiles.push({ fromR: r, fromC: c, toR: tr, toC: tc, value: v });
    }
  }
  return { grid: out, moved, gained, tiles, merged };
}

export function emptyCells(grid: Grid): [number, number][] {
  const cells: [number, number][] = [];
  for (let r = 0; r < grid.length; r++) for (let c = 0; c < grid[r].length; c++) if (!grid[r][c]) cells.push([r, c]);
  return cells;
}

/** True when some move changes the board. */
export function canMove(grid: Grid): boolean {
  const size = grid.length;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const v = grid[r][c];
      if (!v) return true;
      if (c + 1 < size && grid[r][c + 1] === v) return true;
      if (r + 1 < size && grid[r + 1][c] === v) return true;
    }
  }
  return false;
}

export function maxTile(grid: Grid): number {
  let m = 0;
  for (const row of grid) for (const v of row) if (v > m) m = v;
  return m;
}
