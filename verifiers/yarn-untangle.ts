import { defineVerifier } from './define';
import { frac, perItemNames } from './features';
import { type LevelGlobals, type LevelState, readLevel } from './level-puzzle';
import { readGlobal } from './read-global';

/** The page's `yarnUntangle` global: the level fields, and the rest as the state reports them. */
type YarnGlobals = LevelGlobals & Pick<YarnUntangleVerifierState, 'nodes' | 'edges' | 'selected' | 'crossings' | 'crossed' | 'bestCrossings' | 'area'>;

export interface YarnUntangleVerifierState extends LevelState {
  /** Ball positions in canvas coordinates (drag from one to move it). */
  nodes: [number, number][];
  /** Strands as pairs of ball indices. */
  edges: [number, number][];
  /** The ball the keyboard moves. */
  selected: number;
  crossings: number;
  /** 1 for strands that cross another strand (same order as edges). */
  crossed: number[];
  bestCrossings: number;
  /** Where balls may go, and how far one arrow key press moves the selected ball. */
  area: { minX: number; maxX: number; minY: number; maxY: number; step: number };
}

const MAX_NODES = 25;

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
    area: { ...s.area },
  })),
  features: {
    names: [...perItemNames(MAX_NODES, ['present', 'x', 'y', 'selected', 'crossed_strands'], 'ball'), 'crossings', 'nodes', 'moves_left_frac', 'level'],
    encode(s) {
      const out: number[] = [];
      const crossedAt = new Array(MAX_NODES).fill(0);
      s.edges.forEach(([a, b], i) => {
        if (!s.crossed[i]) return;
        if (a < MAX_NODES) crossedAt[a]++;
        if (b < MAX_NODES) crossedAt[b]++;
      });
      for (let i = 0; i < MAX_NODES; i++) {
        const p = s.nodes[i];
        out.push(p ? 1 : 0, p ? p[0] / 480 : 0, p ? p[1] / 480 : 0, i === s.selected ? 1 : 0, crossedAt[i]);
      }
      out.push(s.crossings, s.nodes.length, frac(s.movesLeft, s.moveLimit), s.level);
      return out;
    },
  },
  // next, previous, up, right, down, left: selecting always moves to another ball; a move is
  // clamped to the area, and the game ignores one that leaves the ball where it is (at an edge).
  actionMask(s) {
    const ball = s.nodes[s.selected];
    if (!ball) return [1, 1, 1, 1, 1, 1];
    const [x, y] = ball;
    const { minX, maxX, minY, maxY, step } = s.area;
    const moves = (v: number, to: number, lo: number, hi: number) => (Math.round(Math.max(lo, Math.min(hi, to))) !== v ? 1 : 0);
    return [1, 1, moves(y, y - step, minY, maxY), moves(x, x + step, minX, maxX), moves(y, y + step, minY, maxY), moves(x, x - step, minX, maxX)];
  },
});
