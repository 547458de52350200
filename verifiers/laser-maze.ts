import { defineVerifier } from './define';
import { frac, perItemNames } from './features';
import { type GridLevelGlobals, type GridLevelState, readGridLevel } from './level-puzzle';
import { readGlobal } from './read-global';

/** The page's `laserMaze` global: the level fields, and the rest as the state reports them. */
type LaserGlobals = GridLevelGlobals & Pick<LaserMazeVerifierState, 'cells' | 'mirrors' | 'emitter' | 'targets' | 'hit' | 'beamCells'>;

export interface LaserMazeVerifierState extends GridLevelState {
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
}

const GRID = 6;
const FEATURES = ['wall', 'socket', 'mirror_slash', 'mirror_backslash', 'target', 'target_hit', 'emitter', 'beam'];

export default defineVerifier<LaserMazeVerifierState>({
  gameId: 'laser-maze',
  read: readGlobal('laserMaze', (s: LaserGlobals) => ({
    ...readGridLevel(s),
    cells: s.cells.slice(),
    mirrors: s.mirrors.slice(),
    emitter: { ...s.emitter },
    targets: s.targets.slice(),
    hit: s.hit.slice(),
    beamCells: s.beamCells.slice(),
  })),
  features: {
    names: [...perItemNames(GRID * GRID, FEATURES), 'emitter_dir', 'level', 'moves_left_frac', 'hit_frac'],
    encode(s) {
      const out: number[] = [];
      const beam = new Set(s.beamCells);
      const hit = new Set(s.targets.filter((_, k) => s.hit[k]));
      for (let i = 0; i < GRID * GRID; i++) {
        const c = s.cells[i];
        const m = s.mirrors[i];
        out.push(c === 1 ? 1 : 0, c === 2 ? 1 : 0, m === 1 ? 1 : 0, m === 2 ? 1 : 0, c === 3 ? 1 : 0, hit.has(i) ? 1 : 0, c === 4 ? 1 : 0, beam.has(i) ? 1 : 0);
      }
      out.push(s.emitter.dir, s.level, frac(s.movesLeft, s.moveLimit), frac(s.hit.filter((h) => h).length, s.targets.length));
      return out;
    },
  },
  // One entry per cell, row by row: only a mirror socket (kind 2) cycles; the game ignores a click anywhere else.
  actionMask: (s) => s.cells.map((c) => (c === 2 ? 1 : 0)),
});
