import { defineVerifier } from './define';
import { frac, perItemNames } from './features';
import { type GridLevelGlobals, type GridLevelState, OPENINGS, openings, readGridLevel, turnableTiles } from './level-puzzle';
import { JOINTS, joined } from './pipe-joints';
import { readGlobal } from './read-global';

type EnergyGlobals = GridLevelGlobals & {
  tiles: number[];
  source: number;
  bulbs: number[];
  powered: number[];
  /** Bulbs lit at some point this level. */
  litEver: Record<number, true>;
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
  /** Cell indices of the bulbs lit at some point this level, those lit from the start included: only a bulb's first lighting scores. */
  litBefore: number[];
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
    litBefore: s.bulbs.filter((b) => s.litEver[b]),
    region: { ...s.region },
  })),
  features: {
    // Per cell: its openings, which of them are joined to a neighbour, whether current reaches it,
    // whether it is a bulb (and one lit before this level: a reward depends on it) or the source.
    names: [...perItemNames(GRID * GRID, [...OPENINGS, ...JOINTS, 'powered', 'bulb', 'bulb_was_lit', 'source']), 'level', 'moves_left_frac', 'lit_frac'],
    encode(s) {
      const out: number[] = [];
      const bulbs = new Set(s.bulbs);
      const before = new Set(s.litBefore);
      for (let i = 0; i < GRID * GRID; i++) {
        const cell = [s.powered[i] ? 1 : 0, bulbs.has(i) ? 1 : 0, before.has(i) ? 1 : 0, i === s.source ? 1 : 0];
        out.push(...openings(s.tiles[i] ?? 0), ...joined(s.tiles, GRID, GRID, i), ...cell);
      }
      out.push(s.level, frac(s.movesLeft, s.moveLimit), frac(s.litBulbs, s.bulbs.length));
      return out;
    },
  },
  actionMask: (s) => turnableTiles(s.tiles),
});
