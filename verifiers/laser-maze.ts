import { defineVerifier } from './define';

interface LaserGlobals {
  laserMaze?: {
    cols: number;
    rows: number;
    cells: number[];
    mirrors: number[];
    emitter: { x: number; y: number; dir: number };
    targets: number[];
    hit: number[];
    beamCells: number[];
    grid: { x0: number; y0: number; cell: number };
    level: number;
    score: number;
    moves: number;
    moveLimit: number;
    solvedLevels: number;
    gameOver: boolean;
  };
}

export interface LaserMazeVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  cols: number;
  rows: number;
  /** Cell kind per cell, row-major: 0 empty, 1 wall, 2 mirror socket, 3 target, 4 emitter. */
  cells: number[];
  /** Mirror per cell: 0 none, 1 "/", 2 "\" (only sockets can hold one; a click cycles 0→1→2→0). */
  mirrors: number[];
  /** Emitter cell and firing direction (0 up, 1 right, 2 down, 3 left). */
  emitter: { x: number; y: number; dir: number };
  /** Target cell indices and whether the beam reaches each now. */
  targets: number[];
  hit: number[];
  /** Cells the beam passes through, in order. */
  beamCells: number[];
  /** Cell (x,y) is clicked at x0+cell*(x+0.5), y0+cell*(y+0.5). */
  grid: { x0: number; y0: number; cell: number };
  movesLeft: number;
  moveLimit: number;
  solvedLevels: number;
  [key: string]: unknown;
}

const GRID = 6;
const FEATURES = ['wall', 'socket', 'mirror_slash', 'mirror_backslash', 'target', 'target_hit', 'emitter', 'beam'];

export default defineVerifier<LaserMazeVerifierState>({
  gameId: 'laser-maze',
  read(win) {
    const s = (win as unknown as LaserGlobals).laserMaze;
    if (!s) return null;
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      cols: s.cols,
      rows: s.rows,
      cells: s.cells.slice(),
      mirrors: s.mirrors.slice(),
      emitter: { ...s.emitter },
      targets: s.targets.slice(),
      hit: s.hit.slice(),
      beamCells: s.beamCells.slice(),
      grid: { ...s.grid },
      movesLeft: s.moveLimit - s.moves,
      moveLimit: s.moveLimit,
      solvedLevels: s.solvedLevels,
    };
  },
  features: {
    names: [
      ...Array.from({ length: GRID * GRID }, (_, i) => FEATURES.map((f) => `cell${i}_${f}`)).flat(),
      'emitter_dir',
      'level',
      'moves_left_frac',
      'hit_frac',
    ],
    encode(s) {
      const out: number[] = [];
      const beam = new Set(s.beamCells);
      const hit = new Set(s.targets.filter((_, k) => s.hit[k]));
      for (let i = 0; i < GRID * GRID; i++) {
        const c = s.cells[i];
        out.push(
          c === 1 ? 1 : 0,
          c === 2 ? 1 : 0,
          s.mirrors[i] === 1 ? 1 : 0,
          s.mirrors[i] === 2 ? 1 : 0,
          c === 3 ? 1 : 0,
          hit.has(i) ? 1 : 0,
          c === 4 ? 1 : 0,
          beam.has(i) ? 1 : 0,
        );
      }
      out.push(s.emitter.dir, s.level, s.moveLimit ? s.movesLeft / s.moveLimit : 0, s.targets.length ? s.hit.filter((h) => h).length / s.targets.length : 0);
      return out;
    },
  },
});
