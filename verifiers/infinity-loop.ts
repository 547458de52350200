import { defineVerifier } from './define';
import { frac, perItemNames } from './features';
import { type GridLevelGlobals, type GridLevelState, OPENINGS, openings, readGridLevel, turnableTiles } from './level-puzzle';
import { JOINTS, joined } from './pipe-joints';
import { readGlobal } from './read-global';

type LoopGlobals = GridLevelGlobals & {
  tiles: number[];
  region: { x: number; y: number; w: number; h: number };
  matchedNow: number;
  totalEdges: number;
  /** Edges matched at some point this level, keyed `${cell}e` / `${cell}s`. */
  matchedEver: Record<string, true>;
};

export interface InfinityLoopVerifierState extends GridLevelState {
  /** Opening bitmask per cell, row-major (N=1, E=2, S=4, W=8); 0 = empty. */
  tiles: number[];
  region: { x: number; y: number; w: number; h: number };
  matchedEdges: number;
  totalEdges: number;
  /** Edges (`${cell}e`, `${cell}s`: east and south of the cell) matched at some point this level, the scramble's included: only an edge's first match scores. */
  matchedBefore: string[];
}

const GRID = 6;

export default defineVerifier<InfinityLoopVerifierState>({
  gameId: 'infinity-loop',
  read: readGlobal('infinityLoop', (s: LoopGlobals) => ({
    ...readGridLevel(s),
    tiles: s.tiles.slice(),
    region: { ...s.region },
    matchedEdges: s.matchedNow,
    totalEdges: s.totalEdges,
    matchedBefore: Object.keys(s.matchedEver).sort(),
  })),
  features: {
    // Per cell: its openings, which of them are joined to a neighbour, and whether its east and
    // south edges were matched before this level (a reward depends on it); then level, moves and matches.
    names: [...perItemNames(GRID * GRID, [...OPENINGS, ...JOINTS, 'was_matched_E', 'was_matched_S']), 'level', 'moves_left_frac', 'matched_frac'],
    encode(s) {
      const out: number[] = [];
      const before = new Set(s.matchedBefore);
      for (let i = 0; i < GRID * GRID; i++) {
        out.push(...openings(s.tiles[i] ?? 0), ...joined(s.tiles, GRID, GRID, i), before.has(`${i}e`) ? 1 : 0, before.has(`${i}s`) ? 1 : 0);
      }
      out.push(s.level, frac(s.movesLeft, s.moveLimit), frac(s.matchedEdges, s.totalEdges));
      return out;
    },
  },
  actionMask: (s) => turnableTiles(s.tiles),
});
