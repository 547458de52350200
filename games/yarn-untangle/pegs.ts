import type { P } from './strands';

/**
 * The pegs of Yarn Untangle: balls sit on an 8 × 8 lattice of pegs (row-major), so a tap or a
 * drop names a place the same way on every level. Shared by the game and its scripted agent.
 */
export const PEG_COLS = 8;
export const PEG_ROWS = 8;
const X0 = 30;
const DX = 60;
const Y0 = 64;
const DY = 55;

export const PEGS: readonly P[] = Array.from({ length: PEG_COLS * PEG_ROWS }, (_, i) => [X0 + DX * (i % PEG_COLS), Y0 + DY * Math.floor(i / PEG_COLS)]);

/** The peg nearest to (x, y), or -1 when none lies within `reach` pixels. */
export function nearestPeg(x: number, y: number, reach = Number.POSITIVE_INFINITY): number {
  let best = -1;
  let bestD = 0;
  PEGS.forEach(([px, py], i) => {
    const d = (px - x) ** 2 + (py - y) ** 2;
    if (d <= reach * reach && (best < 0 || d < bestD)) {
      best = i;
      bestD = d;
    }
  });
  return best;
}

/** The neighbouring peg one step (dc, dr) away, or -1 off the lattice. */
export function pegBeside(i: number, dc: number, dr: number): number {
  const c = (i % PEG_COLS) + dc;
  const r = Math.floor(i / PEG_COLS) + dr;
  return c >= 0 && r >= 0 && c < PEG_COLS && r < PEG_ROWS ? r * PEG_COLS + c : -1;
}

/** The pegs of the lattice's edge, in order round it (clockwise from the top-left corner). */
export function ringPegs(): number[] {
  const out: number[] = [];
  for (let c = 0; c < PEG_COLS - 1; c++) out.push(c);
  for (let r = 0; r < PEG_ROWS - 1; r++) out.push(r * PEG_COLS + PEG_COLS - 1);
  for (let c = PEG_COLS - 1; c > 0; c--) out.push((PEG_ROWS - 1) * PEG_COLS + c);
  for (let r = PEG_ROWS - 1; r > 0; r--) out.push(r * PEG_COLS);
  return out;
}

/** The preset (manifest.json): 6 keys, then a tap on each peg. */
export const FIRST_TAP = 6;
export const tapAction = (peg: number) => FIRST_TAP + peg;
