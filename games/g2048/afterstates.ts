import type { DecisionFeatures } from '../../gym/core';
import { slide, type Dir, type Grid } from './logic';

/**
 * What each 2048 move would leave behind (its afterstate, before the new tile spawns), as
 * features, simulated from the verifier state's board with the game's own `slide` (logic.ts):
 * tiles slide to the edge, two equal tiles meet and merge once per move, the merge scores the new
 * tile's value. A move into a wall changes nothing and wastes one of the 100 steps, which a policy
 * reading the raw board has to discover for every board; here `moved` says it outright.
 */

/** Feature names, one block of these per move. */
export const SLIDE_FEATURES = ['gain', 'moved', 'empty', 'merges_available', 'max_in_corner', 'monotonicity', 'smoothness'] as const;
export type SlideFeature = (typeof SLIDE_FEATURES)[number];

/** Each feature is its raw value divided by this, so a unit is a difference that matters (a merge of 16s, a cell, a pair). */
export const SLIDE_SCALE: Record<SlideFeature, number> = {
  gain: 32,
  moved: 1,
  empty: 4,
  merges_available: 4,
  max_in_corner: 1,
  monotonicity: 8,
  smoothness: 8,
};

const log2 = (v: number) => (v > 0 ? Math.log2(v) : 0);

/** Raw features of a board after a move. */
function boardFeatures(g: Grid, gain: number, moved: boolean): Record<SlideFeature, number> {
  const n = g.length;
  let empty = 0;
  let pairs = 0;
  let smooth = 0;
  let max = 0;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const v = g[r][c];
      if (!v) empty++;
      max = Math.max(max, v);
      for (const [rr, cc] of [
        [r, c + 1],
        [r + 1, c],
      ]) {
        const w = g[rr]?.[cc];
        if (w === undefined || !v || !w) continue;
        if (v === w) pairs++;
        smooth -= Math.abs(log2(v) - log2(w));
      }
    }
  }
  const corners = [g[0][0], g[0][n - 1], g[n - 1][0], g[n - 1][n - 1]];
  // Monotonicity: how far rows and columns are from being ordered (in log2 steps), the better direction per line.
  let mono = 0;
  for (let i = 0; i < n; i++) {
    for (const cells of [g[i], g.map((row) => row[i])]) {
      let up = 0;
      let down = 0;
      for (let k = 0; k + 1 < n; k++) {
        const d = log2(cells[k + 1]) - log2(cells[k]);
        if (d > 0) up += d;
        else down -= d;
      }
      mono -= Math.min(up, down);
    }
  }
  return {
    gain,
    moved: moved ? 1 : 0,
    empty,
    merges_available: pairs,
    max_in_corner: max > 0 && corners.includes(max) ? 1 : 0,
    monotonicity: mono,
    smoothness: smooth,
  };
}

/**
 * Afterstate features of each move, in the order of `directions` (the game's preset order):
 * [moves × SLIDE_FEATURES] row-major. At game over every feature is 0.
 */
export function slideAfterstates(directions: readonly Dir[]): DecisionFeatures {
  const perDecision = SLIDE_FEATURES.length;
  return {
    perDecision,
    names: SLIDE_FEATURES,
    encode(info) {
      const out = new Float32Array(directions.length * perDecision);
      const s = (info as { state?: { board?: unknown; gameOver?: unknown } } | undefined)?.state;
      if (!s || !Array.isArray(s.board)) throw new Error('2048 afterstates read info.state.board (the 2048 verifier state), and this state lacks it');
      if (s.gameOver) return out;
      directions.forEach((dir, d) => {
        const r = slide(s.board as Grid, dir);
        const raw = boardFeatures(r.grid, r.gained, r.moved);
        SLIDE_FEATURES.forEach((f, i) => {
          out[d * perDecision + i] = raw[f] / SLIDE_SCALE[f];
        });
      });
      return out;
    },
  };
}
