import { defineVerifier } from './define';
import { frac, perItemNames } from './features';
import { type GridLevelGlobals, type GridLevelState, OPENINGS, openings, readGridLevel, turnableTiles } from './level-puzzle';
import { readGlobal } from './read-global';

type LoopGlobals = GridLevelGlobals & {
  tiles: number[];
  region: { x: number; y: number; w: number; h: number };
  matchedNow: number;
  totalEdges: number;
};

export interface InfinityLoopVerifierState extends GridLevelState {
  /** Opening bitmask per cell, row-major (N=1, E=2, S=4, W=8); 0 = empty. */
  tiles: number[];
  region: { x: number; y: number; w: number; h: number };
  matchedEdges: number;
  totalEdges: number;
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
  })),
  features: {
    names: [...perItemNames(GRID * GRID, OPENINGS), 'level', 'moves_left_frac', 'matched_frac'],
    encode(s) {
      const out: number[] = [];
      for (let i = 0; i < GRID * GRID; i++) out.push(...openings(s.tiles[i] ?? 0));
      out.push(s.level, frac(s.movesLeft, s.moveLimit), frac(s.matchedEdges, s.totalEdges));
      return out;
    },
  },
  actionMask: (s) => turnableTiles(s.tiles),
});
