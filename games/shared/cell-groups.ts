/**
 * Groups of equal cells on the tap boards (gem-11, merge-double): pure, so the games, their
 * scripted agents and their tests share one rule.
 */

/** The orthogonally connected cells holding the same non-zero value as (r, c), (r, c) first, breadth first. */
export function groupAt(board: readonly (readonly number[])[], r: number, c: number): [number, number][] {
  const value = board[r]?.[c];
  if (!value) return [];
  const rows = board.length;
  const cols = board[0].length;
  const seen = new Set([r * cols + c]);
  const out: [number, number][] = [[r, c]];
  for (let i = 0; i < out.length; i++) {
    const [y, x] = out[i];
    for (const [dy, dx] of [
      [-1, 0],
      [1, 0],
      [0, -1],
      [0, 1],
    ]) {
      const ny = y + dy;
      const nx = x + dx;
      if (ny < 0 || nx < 0 || ny >= rows || nx >= cols || board[ny][nx] !== value) continue;
      const k = ny * cols + nx;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push([ny, nx]);
    }
  }
  return out;
}
