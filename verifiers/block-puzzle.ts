/**
 * What the block-placing puzzles (hex-frvr, wood-blocks-3d) publish alike, and how their
 * verifiers read it: three offered pieces, one selected and shown as a ghost at the cursor,
 * lines cleared with combos. Only the board's geometry differs, so each verifier says whether
 * a cell of the selected piece would land on a free cell.
 */

export interface OfferedPiece<Cell> {
  name: string;
  cells: Cell[];
  fits: boolean;
}

export interface BlockPuzzleGlobals<P extends OfferedPiece<unknown>> {
  pieces: (P | null)[];
  selected: number;
  score: number;
  level: number;
  lines: number;
  combo: number;
  moves: number;
  sets: number;
  gameOver: boolean;
}

export interface BlockPuzzleState {
  score: number;
  gameOver: boolean;
  level: number;
  /** Index of the piece the ghost shows. */
  selected: number;
  /** Whether the selected piece would drop where the ghost is. */
  canPlace: boolean;
  lines: number;
  combo: number;
  moves: number;
  sets: number;
  [key: string]: unknown;
}

/** The fields every block puzzle reports; `free(cell)` says whether one cell of the selected piece lands on a free board cell. */
export function readBlockPuzzle<Cell>(s: BlockPuzzleGlobals<OfferedPiece<Cell>>, free: (cell: Cell) => boolean): BlockPuzzleState {
  const sel = s.pieces[s.selected];
  return {
    score: s.score,
    gameOver: s.gameOver,
    level: s.level,
    selected: s.selected,
    canPlace: !!sel && !s.gameOver && sel.cells.every(free),
    lines: s.lines,
    combo: s.combo,
    moves: s.moves,
    sets: s.sets,
  };
}

const SLOTS = [0, 1, 2];

/**
 * Each offered piece as a `span`×`span` occupancy grid, row by row: cell [x, y] sits at
 * (x + offset, y + offset); cells outside the window are left out.
 */
export function pieceGrids(pieces: readonly ({ cells: [number, number][] } | null)[], span: number, offset: number): number[] {
  const out: number[] = [];
  for (const i of SLOTS) {
    const grid = new Array<number>(span * span).fill(0);
    for (const [x, y] of pieces[i]?.cells ?? []) {
      const gx = x + offset;
      const gy = y + offset;
      if (gx >= 0 && gy >= 0 && gx < span && gy < span) grid[gy * span + gx] = 1;
    }
    out.push(...grid);
  }
  return out;
}

/** The names of what `blockPuzzleTail` writes, given the cursor's two. */
export function blockPuzzleTailNames(cursor: [string, string]): string[] {
  return ['sel_1', 'sel_2', 'sel_3', ...cursor, 'can_place', 'fits_1', 'fits_2', 'fits_3', 'combo', 'level'];
}

/** The selection, the cursor (already scaled to about 0..1), whether the piece can drop, which pieces fit, combo and level. */
export function blockPuzzleTail(s: BlockPuzzleState & { pieces: ({ fits: boolean } | null)[] }, cursor: [number, number]): number[] {
  return [
    ...SLOTS.map((i) => (s.selected === i ? 1 : 0)),
    ...cursor,
    s.canPlace ? 1 : 0,
    ...SLOTS.map((i) => (s.pieces[i]?.fits ? 1 : 0)),
    Math.min(s.combo, 10) / 10,
    s.level / 10,
  ];
}

/**
 * The action mask's entries a block puzzle's preset starts and ends with: picking a piece does
 * nothing for a used slot or the piece already picked, and dropping does nothing where the
 * selected piece does not fit (the ghost shakes); the game ignores both.
 */
export function blockPuzzleMask(s: BlockPuzzleState & { pieces: readonly unknown[] }, moves: readonly number[]): number[] {
  return [...SLOTS.map((i) => (s.pieces[i] && s.selected !== i ? 1 : 0)), ...moves, s.canPlace ? 1 : 0];
}
