import { defineVerifier } from './define';

interface YarnGlobals {
  yarnUntangle?: {
    nodes: [number, number][];
    edges: [number, number][];
    selected: number;
    crossings: number;
    crossed: number[];
    bestCrossings: number;
    level: number;
    score: number;
    moves: number;
    moveLimit: number;
    solvedLevels: number;
    gameOver: boolean;
    area: { minX: number; maxX: number; minY: number; maxY: number; step: number };
  };
}

export interface YarnUntangleVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
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
  movesLeft: number;
  moveLimit: number;
  solvedLevels: number;
  /** Where balls may go, and how far one arrow key press moves the selected ball. */
  area: { minX: number; maxX: number; minY: number; maxY: number; step: number };
  [key: string]: unknown;
}

const MAX_NODES = 25;

export default defineVerifier<YarnUntangleVerifierState>({
  gameId: 'yarn-untangle',
  read(win) {
    const s = (win as unknown as YarnGlobals).yarnUntangle;
    if (!s) return null;
    return {
      score: s.score,
      gameOver: s.gameOver,
      level: s.level,
      nodes: s.nodes.map(([x, y]) => [x, y] as [number, number]),
      edges: s.edges.map(([a, b]) => [a, b] as [number, number]),
      selected: s.selected,
      crossings: s.crossings,
      crossed: s.crossed.slice(),
      bestCrossings: s.bestCrossings,
      movesLeft: s.moveLimit - s.moves,
      moveLimit: s.moveLimit,
      solvedLevels: s.solvedLevels,
      area: { ...s.area },
    };
  },
  features: {
    names: [
      ...Array.from({ length: MAX_NODES }, (_, i) => ['present', 'x', 'y', 'selected', 'crossed_strands'].map((f) => `ball${i}_${f}`)).flat(),
      'crossings',
      'nodes',
      'moves_left_frac',
      'level',
    ],
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
      out.push(s.crossings, s.nodes.length, s.moveLimit ? s.movesLeft / s.moveLimit : 0, s.level);
      return out;
    },
  },
});
