/** Bins scores for the distribution plot on a game's page. */
export interface Bin {
  /** Lower edge (inclusive); the last bin also includes its upper edge. */
  from: number;
  to: number;
  count: number;
}

/** Equal-width bins over [min, max]; integer scores get integer edges when the range allows. */
export function histogram(scores: readonly number[], maxBins = 20): Bin[] {
  if (scores.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  if (min === max) return [{ from: min, to: max, count: scores.length }];
  const integers = scores.every(Number.isInteger);
  let width = (max - min) / maxBins;
  if (integers) width = Math.max(1, Math.ceil(width));
  const n = Math.max(1, Math.ceil((max - min) / width + (integers ? 1e-9 : 0)));
  const bins: Bin[] = Array.from({ length: n }, (_, i) => ({ from: min + i * width, to: min + (i + 1) * width, count: 0 }));
  for (const s of scores) bins[Math.min(n - 1, Math.floor((s - min) / width))].count++;
  return bins;
}
