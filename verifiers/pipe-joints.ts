/**
 * Which openings of the turn-a-tile puzzles (energy, infinity-loop) meet their neighbour's. A
 * module of its own: the other verifiers that read levels bundle level-puzzle.ts, and a bundle
 * whose text changes changes its checksum, which every record of that game carries.
 */

/** Feature names of `joined`: one per side. */
export const JOINTS = ['joined_N', 'joined_E', 'joined_S', 'joined_W'];

const STEP_X = [0, 1, 0, -1];
const STEP_Y = [-1, 0, 1, 0];

/**
 * For each side of cell i (N, E, S, W), 1 where its opening meets the facing opening of the
 * neighbour on that side: the joints the board shows closed. From openings alone, whether two
 * neighbours join is a comparison of bits across cells that a network would have to learn for
 * every pair.
 */
export function joined(tiles: readonly number[], cols: number, rows: number, i: number): number[] {
  const x = i % cols;
  const y = Math.floor(i / cols);
  return STEP_X.map((dx, d) => {
    const nx = x + dx;
    const ny = y + STEP_Y[d];
    if (!(tiles[i] & (1 << d)) || nx < 0 || ny < 0 || nx >= cols || ny >= rows) return 0;
    return tiles[ny * cols + nx] & (1 << ((d + 2) % 4)) ? 1 : 0;
  });
}
