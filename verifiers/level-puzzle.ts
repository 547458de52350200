/**
 * What the level-by-level puzzles with a move limit (energy, infinity-loop, laser-maze, shapes,
 * yarn-untangle) publish alike, and how their verifiers read it: one level at a time, a move
 * budget per level, a count of solved levels.
 */

export interface LevelGlobals {
  level: number;
  score: number;
  moves: number;
  moveLimit: number;
  solvedLevels: number;
  gameOver: boolean;
}

export interface LevelState {
  score: number;
  gameOver: boolean;
  level: number;
  movesLeft: number;
  moveLimit: number;
  solvedLevels: number;
  [key: string]: unknown;
}

export function readLevel(s: LevelGlobals): LevelState {
  return {
    score: s.score,
    gameOver: s.gameOver,
    level: s.level,
    movesLeft: s.moveLimit - s.moves,
    moveLimit: s.moveLimit,
    solvedLevels: s.solvedLevels,
  };
}

/** Canvas position of cell (0,0) and the cell size: cell (x,y) is clicked at x0+cell*(x+0.5), y0+cell*(y+0.5). */
export interface ClickGrid {
  x0: number;
  y0: number;
  cell: number;
}

/** A level puzzle played on a `cols`×`rows` grid of cells that are clicked. */
export interface GridLevelGlobals extends LevelGlobals {
  cols: number;
  rows: number;
  grid: ClickGrid;
}

export interface GridLevelState extends LevelState {
  cols: number;
  rows: number;
  grid: ClickGrid;
}

export function readGridLevel(s: GridLevelGlobals): GridLevelState {
  return { ...readLevel(s), cols: s.cols, rows: s.rows, grid: { ...s.grid } };
}

/** The four openings of a tile's bitmask (N=1, E=2, S=4, W=8), as 0/1 in that order. */
export function openings(mask: number): number[] {
  return [mask & 1, (mask >> 1) & 1, (mask >> 2) & 1, (mask >> 3) & 1];
}

export const OPENINGS = ['N', 'E', 'S', 'W'];

/**
 * The action mask of the turn-a-tile puzzles (energy, infinity-loop), one entry per cell in the
 * preset's order (row by row): an empty cell and a cross (15, the same whichever way it faces)
 * do not turn, and the game ignores a tap on them.
 */
export function turnableTiles(tiles: readonly number[]): number[] {
  return tiles.map((m) => (m !== 0 && m !== 15 ? 1 : 0));
}
