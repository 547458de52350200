/**
 * Pure rules of Hex (no DOM): a radius-4 hexagonal board in axial coordinates (q, r) with
 * pointy-topped cells, pieces made of hex cells, fitting, placing and clearing full lines along
 * the three hex axes. Shared by the game and its scripted agent.
 */

export const RADIUS = 4;

export type Axial = [number, number];

/** The six neighbour directions, named as they look on screen (north is up, r decreasing). */
export const DIRS: Record<'E' | 'W' | 'NE' | 'NW' | 'SE' | 'SW', Axial> = {
  E: [1, 0],
  W: [-1, 0],
  NE: [1, -1],
  NW: [0, -1],
  SE: [0, 1],
  SW: [-1, 1],
};
export type DirName = keyof typeof DIRS;
export const DIR_NAMES: DirName[] = ['NW', 'NE', 'W', 'E', 'SW', 'SE'];

export function onBoard(q: number, r: number): boolean {
  return Math.abs(q) <= RADIUS && Math.abs(r) <= RADIUS && Math.abs(q + r) <= RADIUS;
}

/** Every cell of the board, row by row (r from -4 to 4), then q ascending. */
export const CELLS: Axial[] = [];
for (let r = -RADIUS; r <= RADIUS; r++) for (let q = -RADIUS; q <= RADIUS; q++) if (onBoard(q, r)) CELLS.push([q, r]);

export const key = (q: number, r: number) => `${q},${r}`;
export const cellIndex = new Map(CELLS.map(([q, r], i) => [key(q, r), i] as const));

/** The 27 lines: 9 rows of constant r, 9 of constant q, 9 of constant s = -q-r; as cell indices. */
export const LINES: { axis: 'r' | 'q' | 's'; value: number; cells: number[] }[] = [];
for (const axis of ['r', 'q', 's'] as const) {
  for (let v = -RADIUS; v <= RADIUS; v++) {
    const cells = CELLS.map(([q, r], i) => ({ i, a: axis === 'r' ? r : axis === 'q' ? q : -q - r }))
      .filter((c) => c.a === v)
      .map((c) => c.i);
    LINES.push({ axis, value: v, cells });
  }
}

export function hexDistance(a: Axial, b: Axial): number {
  const dq = a[0] - b[0];
  const dr = a[1] - b[1];
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

export interface HexPieceDef {
  name: string;
  tier: number;
  /** Offsets from the anchor cell (the first offset is always [0,0]). */
  cells: Axial[];
}

/** Builds a piece by walking from the anchor: each entry is a list of direction names from it. */
function walk(name: string, tier: number, paths: DirName[][]): HexPieceDef {
  const cells: Axial[] = [[0, 0]];
  for (const path of paths) {
    let q = 0;
    let r = 0;
    for (const d of path) {
      q += DIRS[d][0];
      r += DIRS[d][1];
    }
    if (!cells.some(([a, b]) => a === q && b === r)) cells.push([q, r]);
  }
  return { name, tier, cells };
}

export const CATALOGUE: HexPieceDef[] = [
  // Tier 0.
  walk('dot', 0, []),
  walk('two-e', 0, [['E']]),
  walk('two-ne', 0, [['NE']]),
  walk('two-se', 0, [['SE']]),
  walk('tri-up', 0, [['E'], ['NE']]),
  walk('tri-down', 0, [['E'], ['SE']]),
  // Tier 1: threes in a line or bent, and small fours.
  walk('line3-e', 1, [['W'], ['E']]),
  walk('line3-ne', 1, [['SW'], ['NE']]),
  walk('line3-se', 1, [['NW'], ['SE']]),
  walk('bend-a', 1, [['W'], ['NE']]),
  walk('bend-b', 1, [['E'], ['NW']]),
  walk('bend-c', 1, [['W'], ['SE']]),
  walk('bend-d', 1, [['E'], ['SW']]),
  walk('diamond-h', 1, [['E'], ['NE'], ['NE', 'E']]),
  walk('diamond-v', 1, [['NE'], ['SE'], ['E']]),
  // Tier 2: lines of four and longer shapes.
  walk('line4-e', 2, [['W'], ['E'], ['E', 'E']]),
  walk('line4-ne', 2, [['SW'], ['NE'], ['NE', 'NE']]),
  walk('line4-se', 2, [['NW'], ['SE'], ['SE', 'SE']]),
  walk('arc-a', 2, [['W'], ['NW'], ['NE']]),
  walk('arc-b', 2, [['E'], ['SE'], ['SW']]),
  walk('s-e', 2, [['W'], ['NE'], ['NE', 'E']]),
  walk('z-e', 2, [['E'], ['NW'], ['NW', 'W']]),
  walk('hook', 2, [['W'], ['E'], ['E', 'NE']]),
  // Tier 3: five-cell and sprawling shapes.
  walk('line5-e', 3, [['W'], ['W', 'W'], ['E'], ['E', 'E']]),
  walk('line5-se', 3, [['NW'], ['NW', 'NW'], ['SE'], ['SE', 'SE']]),
  walk('y', 3, [['W'], ['NE'], ['SE']]),
  walk('y-inv', 3, [['E'], ['NW'], ['SW']]),
  walk('cup', 3, [['W'], ['NW'], ['NE'], ['E']]),
  walk('flower', 3, [['W'], ['E'], ['NW'], ['SE']]),
  walk('big-tri', 3, [['E'], ['NE'], ['E', 'E'], ['NE', 'NE'], ['NE', 'E']]),
];

export function levelFor(score: number): number {
  return 1 + Math.floor(score / 75);
}

export function tierWeights(level: number): number[] {
  return [Math.max(1, 6 - level), 4, Math.min(6, 1 + level), level >= 3 ? Math.min(5, level - 2) : 0];
}

/** Cell contents by cell index (0 empty, otherwise a colour id). */
export type HexBoard = number[];

export function emptyBoard(): HexBoard {
  return new Array<number>(CELLS.length).fill(0);
}

/** Whether every cell of the piece lies on the board with its anchor at (q, r). */
export function inside(p: { cells: Axial[] }, q: number, r: number): boolean {
  return p.cells.every(([dq, dr]) => onBoard(q + dq, r + dr));
}

export function fits(board: HexBoard, p: { cells: Axial[] }, q: number, r: number): boolean {
  for (const [dq, dr] of p.cells) {
    const i = cellIndex.get(key(q + dq, r + dr));
    if (i === undefined || board[i] !== 0) return false;
  }
  return true;
}

export function fitsAnywhere(board: HexBoard, p: { cells: Axial[] }): boolean {
  return CELLS.some(([q, r]) => fits(board, p, q, r));
}

/** The anchor nearest to (q, r) (then by row, then column) that keeps the piece on the board. */
export function nearestInside(p: { cells: Axial[] }, q: number, r: number): Axial {
  let best: Axial = [0, 0];
  let bestD = Infinity;
  for (const [cq, cr] of CELLS) {
    if (!inside(p, cq, cr)) continue;
    const d = hexDistance([cq, cr], [q, r]);
    if (d < bestD) {
      bestD = d;
      best = [cq, cr];
    }
  }
  return best;
}

/** Where a piece held over cell (q, r) is anchored: there, or the nearest anchor that keeps it on the board (a click or a drag's drop). */
export function anchorForCell(p: { cells: Axial[] } | null | undefined, q: number, r: number): Axial {
  return p && !inside(p, q, r) ? nearestInside(p, q, r) : [q, r];
}

/** The preset (manifest.json): the 10 keys, then the drags of each offered slot onto each board cell (slot-major, cells in `CELLS` order). */
export const FIRST_DROP = 10;
export const dropAction = (slot: number, cell: number) => FIRST_DROP + slot * CELLS.length + cell;

export interface HexPlaceResult {
  board: HexBoard;
  /** Indices into LINES of the cleared lines. */
  lines: number[];
  cells: number;
  cleared: number[];
}

export function place(board: HexBoard, p: { cells: Axial[] }, q: number, r: number, color: number): HexPlaceResult {
  const b = board.slice();
  for (const [dq, dr] of p.cells) b[cellIndex.get(key(q + dq, r + dr))!] = color;
  const lines: number[] = [];
  const cleared = new Set<number>();
  LINES.forEach((line, li) => {
    if (line.cells.every((i) => b[i] !== 0)) {
      lines.push(li);
      for (const i of line.cells) cleared.add(i);
    }
  });
  for (const i of cleared) b[i] = 0;
  return { board: b, lines, cells: p.cells.length, cleared: [...cleared].sort((x, y) => x - y) };
}

/** The best drop of any offered piece at any anchor where it fits, by `value` (the first of equals), or null when none fits. */
export function bestDrop<P extends { cells: Axial[] }>(
  board: HexBoard,
  pieces: (P | null)[],
  value: (res: HexPlaceResult, piece: number, q: number, r: number) => number,
): { piece: number; q: number; r: number } | null {
  let best: { value: number; piece: number; q: number; r: number } | null = null;
  pieces.forEach((p, i) => {
    if (!p) return;
    for (const [q, r] of CELLS) {
      if (!fits(board, p, q, r)) continue;
      const v = value(place(board, p, q, r, 1), i, q, r);
      if (!best || v > best.value) best = { value: v, piece: i, q, r };
    }
  });
  return best;
}

export function linePoints(lines: number, combo: number): number {
  return lines === 0 ? 0 : ((10 * lines * (lines + 1)) / 2) * combo;
}

/** Where one cursor move goes: the anchor moves only if the piece stays on the board. */
export function stepCursor(p: { cells: Axial[] } | null, q: number, r: number, dir: DirName): Axial {
  const [dq, dr] = DIRS[dir];
  const nq = q + dq;
  const nr = r + dr;
  const ok = p ? inside(p, nq, nr) : onBoard(nq, nr);
  return ok ? [nq, nr] : [q, r];
}
