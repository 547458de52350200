/**
 * Pure rules of Wood Blocks 3D (no DOM): the piece catalogue, fitting, placing and line
 * clearing on an 8×8 board. Shared by the game and its scripted agent.
 */

export const SIZE = 8;

export interface PieceDef {
  /** Catalogue name, e.g. "L3a". */
  name: string;
  /** Difficulty tier: 0 small, 1 medium, 2 large, 3 awkward. */
  tier: number;
  /** Cells as [col, row] offsets from the top-left of the bounding box. */
  cells: [number, number][];
  w: number;
  h: number;
}

/** Parses rows of '#'/'.' into a piece. */
function shape(name: string, tier: number, rows: string[]): PieceDef {
  const cells: [number, number][] = [];
  rows.forEach((row, r) => [...row].forEach((ch, c) => ch === '#' && cells.push([c, r])));
  return { name, tier, cells, w: Math.max(...rows.map((r) => r.length)), h: rows.length };
}

export const CATALOGUE: PieceDef[] = [
  // Tier 0: small and friendly.
  shape('dot', 0, ['#']),
  shape('I2h', 0, ['##']),
  shape('I2v', 0, ['#', '#']),
  shape('I3h', 0, ['###']),
  shape('I3v', 0, ['#', '#', '#']),
  shape('V3a', 0, ['##', '#.']),
  shape('V3b', 0, ['##', '.#']),
  shape('V3c', 0, ['#.', '##']),
  shape('V3d', 0, ['.#', '##']),
  // Tier 1: tetrominoes.
  shape('O4', 1, ['##', '##']),
  shape('I4h', 1, ['####']),
  shape('I4v', 1, ['#', '#', '#', '#']),
  shape('T4a', 1, ['###', '.#.']),
  shape('T4b', 1, ['.#.', '###']),
  shape('T4c', 1, ['#.', '##', '#.']),
  shape('T4d', 1, ['.#', '##', '.#']),
  shape('L4a', 1, ['#.', '#.', '##']),
  shape('L4b', 1, ['.#', '.#', '##']),
  shape('L4c', 1, ['###', '#..']),
  shape('L4d', 1, ['###', '..#']),
  shape('S4h', 1, ['.##', '##.']),
  shape('Z4h', 1, ['##.', '.##']),
  // Tier 2: large pieces.
  shape('I5h', 2, ['#####']),
  shape('I5v', 2, ['#', '#', '#', '#', '#']),
  shape('O9', 2, ['###', '###', '###']),
  shape('R6h', 2, ['###', '###']),
  shape('R6v', 2, ['##', '##', '##']),
  shape('V5a', 2, ['###', '#..', '#..']),
  shape('V5b', 2, ['###', '..#', '..#']),
  shape('V5c', 2, ['#..', '#..', '###']),
  shape('V5d', 2, ['..#', '..#', '###']),
  // Tier 3: awkward shapes.
  shape('plus', 3, ['.#.', '###', '.#.']),
  shape('U5a', 3, ['#.#', '###']),
  shape('U5b', 3, ['##', '#.', '##']),
  shape('D2a', 3, ['#.', '.#']),
  shape('D2b', 3, ['.#', '#.']),
  shape('D3a', 3, ['#..', '.#.', '..#']),
  shape('D3b', 3, ['..#', '.#.', '#..']),
  shape('S4v', 3, ['#.', '##', '.#']),
  shape('Z4v', 3, ['.#', '##', '#.']),
];

/** Level from score: the piece mix gets larger and stranger every 75 points. */
export function levelFor(score: number): number {
  return 1 + Math.floor(score / 75);
}

/** Relative weight of each tier at a level. */
export function tierWeights(level: number): number[] {
  return [Math.max(1, 7 - level), 4, Math.min(7, level), level >= 3 ? Math.min(6, level - 2) : 0];
}

export type Board = number[][];

export function emptyBoard(): Board {
  return Array.from({ length: SIZE }, () => new Array<number>(SIZE).fill(0));
}

export function fits(board: Board, p: { cells: [number, number][] }, col: number, row: number): boolean {
  for (const [dc, dr] of p.cells) {
    const c = col + dc;
    const r = row + dr;
    if (c < 0 || r < 0 || c >= SIZE || r >= SIZE || board[r][c] !== 0) return false;
  }
  return true;
}

export function fitsAnywhere(board: Board, p: { cells: [number, number][]; w: number; h: number }): boolean {
  for (let r = 0; r + p.h <= SIZE; r++) for (let c = 0; c + p.w <= SIZE; c++) if (fits(board, p, c, r)) return true;
  return false;
}

/**
 * Where the ghost's top-left corner may be for a selected piece of w×h cells (1×1 with none
 * selected): the game keeps it inside the board, so moving or selecting a piece near an edge
 * pulls the corner in.
 */
export function keepCornerInside(col: number, row: number, w: number, h: number): { col: number; row: number } {
  return { col: Math.max(0, Math.min(SIZE - w, col)), row: Math.max(0, Math.min(SIZE - h, row)) };
}

/** Where a piece held over board cell (col, row) goes: centred on that cell, then kept on the board (a click or a drag's drop). */
export function cornerForCell(col: number, row: number, w: number, h: number): { col: number; row: number } {
  return keepCornerInside(col - Math.floor((w - 1) / 2), row - Math.floor((h - 1) / 2), w, h);
}

/** The board cell to drop a piece over so that its corner lands on (col, row), a corner on the board: what `cornerForCell` undoes. */
export function cellForCorner(col: number, row: number, w: number, h: number): { col: number; row: number } {
  return { col: col + Math.floor((w - 1) / 2), row: row + Math.floor((h - 1) / 2) };
}

/** The preset (manifest.json): the 8 keys, then the drags of each offered slot onto each board cell (slot-major, then row, then column). */
export const FIRST_DROP = 8;
export const dropAction = (slot: number, col: number, row: number) => FIRST_DROP + slot * SIZE * SIZE + row * SIZE + col;

export interface PlaceResult {
  board: Board;
  rows: number[];
  cols: number[];
  /** Cells placed. */
  cells: number;
}

/** Places a piece (which must fit) and clears full rows and columns; returns a new board. */
export function place(board: Board, p: { cells: [number, number][] }, col: number, row: number, color: number): PlaceResult {
  const b = board.map((r) => r.slice());
  for (const [dc, dr] of p.cells) b[row + dr][col + dc] = color;
  const rows: number[] = [];
  const cols: number[] = [];
  for (let r = 0; r < SIZE; r++) if (b[r].every((v) => v !== 0)) rows.push(r);
  for (let c = 0; c < SIZE; c++) if (b.every((line) => line[c] !== 0)) cols.push(c);
  for (const r of rows) b[r].fill(0);
  for (const c of cols) for (let r = 0; r < SIZE; r++) b[r][c] = 0;
  return { board: b, rows, cols, cells: p.cells.length };
}

/** Points for clearing `lines` lines at once, in a streak of `combo` clearing moves (combo ≥ 1). */
export function linePoints(lines: number, combo: number): number {
  return lines === 0 ? 0 : ((10 * lines * (lines + 1)) / 2) * combo;
}
