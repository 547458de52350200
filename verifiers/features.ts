/**
 * Helpers for a verifier's feature vector: names and values of fixed-size grids, in the same
 * order, so the two cannot drift apart. Bundled into each verifier that uses them.
 */

/** `a / b`, or 0 where `b` is 0 (no move limit, no bulbs, nothing to match). */
export function frac(a: number, b: number): number {
  return b ? a / b : 0;
}

/** The names of `rows`×`cols` grid cells, row by row (the order `gridCells` writes them in). */
export function gridNames(rows: number, cols: number, name: (r: number, c: number) => string): string[] {
  const names: string[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) names.push(name(r, c));
  return names;
}

/**
 * A `rows`×`cols` window of a board, row by row, each cell mapped through `f`: cells the board
 * does not have count as 0, so the vector keeps its length whatever the board's size.
 */
export function gridCells(board: readonly (readonly number[])[], rows: number, cols: number, f: (v: number) => number): number[] {
  const out: number[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out.push(f(board[r]?.[c] ?? 0));
  return out;
}

/** `${prefix}${i}_${f}` for each of `count` items and each of its features, item by item. */
export function perItemNames(count: number, features: readonly string[], prefix = 'cell'): string[] {
  return Array.from({ length: count }, (_, i) => features.map((f) => `${prefix}${i}_${f}`)).flat();
}

/** The cells of a board that hold 0. */
export function countEmpty(board: readonly (readonly number[])[]): number {
  let empty = 0;
  for (const row of board) for (const v of row) if (!v) empty++;
  return empty;
}
