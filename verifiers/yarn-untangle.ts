import { defineVerifier } from './define';
import { frac, perItemNames } from './features';
import { type LevelGlobals, type LevelState, readLevel } from './level-puzzle';
import { readGlobal } from './read-global';

/** The page's `yarnUntangle` global: the level fields, and the rest as the state reports them. */
type YarnGlobals = LevelGlobals & Pick<YarnUntangleVerifierState, 'nodes' | 'edges' | 'selected' | 'crossings' | 'crossed' | 'bestCrossings' | 'pegs'>;

export interface YarnUntangleVerifierState extends LevelState {
  /** Ball positions in canvas coordinates (each on a peg). */
  nodes: [number, number][];
  /** Strands as pairs of ball indices. */
  edges: [number, number][];
  /** The ball the keyboard and taps on empty pegs move. */
  selected: number;
  crossings: number;
  /** 1 for strands that cross another strand (same order as edges). */
  crossed: number[];
  bestCrossings: number;
  /** Canvas positions of the 8 × 8 pegs balls sit on, row-major. */
  pegs: [number, number][];
}

const PEG_COLS = 8;
const PEGS = 64;
const KEYS = 6;

/** Which ball sits on each peg (-1 for none). */
function ballsOnPegs(s: YarnUntangleVerifierState): number[] {
  const at = new Map(s.nodes.map(([x, y], i) => [`${x},${y}`, i]));
  return s.pegs.map(([x, y]) => at.get(`${x},${y}`) ?? -1);
}

export default defineVerifier<YarnUntangleVerifierState>({
  gameId: 'yarn-untangle',
  read: readGlobal('yarnUntangle', (s: YarnGlobals) => ({
    ...readLevel(s),
    nodes: s.nodes.map(([x, y]) => [x, y] as [number, number]),
    edges: s.edges.map(([a, b]) => [a, b] as [number, number]),
    selected: s.selected,
    crossings: s.crossings,
    crossed: s.crossed.slice(),
    bestCrossings: s.bestCrossings,
    pegs: s.pegs.map(([x, y]) => [x, y] as [number, number]),
  })),
  features: {
    // Peg by peg, as the taps address them: a ball there, the selected one, how many strands it
    // has, how many of them cross another, and how many join it to the selected ball.
    names: [
      ...perItemNames(PEGS, ['ball', 'selected', 'strands', 'crossed_strands', 'strands_to_selected'], 'peg'),
      'crossings',
      'nodes',
      'moves_left_frac',
      'level',
    ],
    encode(s) {
      const strands = new Array(s.nodes.length).fill(0);
      const crossed = new Array(s.nodes.length).fill(0);
      const toSelected = new Array(s.nodes.length).fill(0);
      s.edges.forEach(([a, b], i) => {
        strands[a]++;
        strands[b]++;
        crossed[a] += s.crossed[i] ? 1 : 0;
        crossed[b] += s.crossed[i] ? 1 : 0;
        if (a === s.selected) toSelected[b]++;
        if (b === s.selected) toSelected[a]++;
      });
      const out: number[] = [];
      for (const v of ballsOnPegs(s))
        out.push(v >= 0 ? 1 : 0, v >= 0 && v === s.selected ? 1 : 0, v >= 0 ? strands[v] : 0, v >= 0 ? crossed[v] : 0, v >= 0 ? toSelected[v] : 0);
      out.push(s.crossings, s.nodes.length, frac(s.movesLeft, s.moveLimit), s.level);
      return out;
    },
  },
  // The keys (next, previous, up, right, down, left), then a tap on each peg. Selecting always
  // moves to another ball; an arrow moves the selected ball to the next peg that way, if there
  // is one and it is free. A tap on a ball selects it (nothing new for the selected one); a tap
  // on an empty peg moves the selected ball there.
  actionMask(s) {
    const on = ballsOnPegs(s);
    const here = on.indexOf(s.selected);
    if (here < 0) return new Array(KEYS + PEGS).fill(1);
    const free = (dc: number, dr: number) => {
      const c = (here % PEG_COLS) + dc;
      const r = Math.floor(here / PEG_COLS) + dr;
      return c >= 0 && r >= 0 && c < PEG_COLS && r < PEGS / PEG_COLS && on[r * PEG_COLS + c] < 0 ? 1 : 0;
    };
    return [1, 1, free(0, -1), free(1, 0), free(0, 1), free(-1, 0), ...on.map((v) => (v === s.selected ? 0 : 1))];
  },
});
