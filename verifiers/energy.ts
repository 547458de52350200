import { defineVerifier } from './define';
import { frac, perItemNames } from './features';
import { type GridLevelGlobals, type GridLevelState, OPENINGS, openings, readGridLevel, turnableTiles } from './level-puzzle';
import { readGlobal } from './read-global';

type EnergyGlobals = GridLevelGlobals & {
  tiles: number[];
  source: number;
  bulbs: number[];
  powered: number[];
  region: { x: number; y: number; w: number; h: number };
};

export interface EnergyVerifierState extends GridLevelState {
  /** Wire openings per cell, row-major (N=1, E=2, S=4, W=8); 0 = empty. */
  tiles: number[];
  /** Cell index of the power source. */
  source: number;
  /** Cell indices of the bulbs. */
  bulbs: number[];
  /** 1 where current reaches the cell, row-major. */
  powered: number[];
  litBulbs: number;
  region: { x: number; y: number; w: number; h: number };
}

const GRID = 6;

export default defineVerifier<EnergyVerifierState>({
  gameId: 'energy',
  read: readGlobal('energy', (s: EnergyGlobals) => ({
    ...readGridLevel(s),
    tiles: s.tiles.slice(),
    source: s.source,
    bulbs: s.bulbs.slice(),
    powered: s.powered.slice(),
    litBulbs: s.bulbs.filter((b) => s.powered[b]).length,
    region: { ...s.region },
  })),
  features: {
    names: [...perItemNames(GRID * GRID, [...OPENINGS, 'powered', 'bulb', 'source']), 'level', 'moves_left_frac', 'lit_frac'],
    encode(s) {
      const out: number[] = [];
      const bulbs = new Set(s.bulbs);
      for (let i = 0; i < GRID * GRID; i++) out.push(...openings(s.tiles[i] ?? 0), s.powered[i] ? 1 : 0, bulbs.has(i) ? 1 : 0, i === s.source ? 1 : 0);
      out.push(s.level, frac(s.movesLeft, s.moveLimit), frac(s.litBulbs, s.bulbs.length));
      return out;
    },
  },
  actionMask: (s) => turnableTiles(s.tiles),
});
