/**
 * Uncertainty of leaderboard numbers, as Agarwal et al. (2021, "Deep RL at the edge of the
 * statistical precipice", the rliable library) ask of a few-run evaluation: per game, the mean with
 * a 95 % confidence interval; over a suite, the interquartile mean (IQM) of every (game, seed)
 * normalised score, with a 95 % stratified-bootstrap interval (seeds resampled within each game).
 * Entries whose intervals overlap are not told apart: the board shows them as tied. Pure functions;
 * the bootstrap is seeded, so a page shows the same interval every time it is rendered.
 */
import { SeededRandom } from '../gym/random';

/** Two-sided 95 % quantiles of Student's t for 1…30 degrees of freedom; 1.96 beyond. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export interface Interval {
  lo: number;
  hi: number;
}

/** The 95 % t-interval of a mean of `n` samples with sample std `std`; null below 2 samples. */
export function meanInterval(mean: number, std: number, n: number): Interval | null {
  if (n < 2 || !Number.isFinite(std)) return null;
  const half = (T975[n - 2] ?? 1.96) * (std / Math.sqrt(n));
  return { lo: mean - half, hi: mean + half };
}

/** The interquartile mean: the mean of what is left after a quarter of the samples is cut from each end (scipy's trim_mean(x, 0.25)). */
export function iqm(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return sortedIqm(Float64Array.from(values).sort());
}

/** The IQM of values already sorted ascending: the middle half, summed from the low end. */
function sortedIqm(sorted: ArrayLike<number>): number {
  const cut = Math.floor(sorted.length * 0.25);
  let sum = 0;
  for (let i = cut; i < sorted.length - cut; i++) sum += sorted[i];
  return sum / (sorted.length - 2 * cut);
}

export interface Estimate extends Interval {
  value: number;
}

/**
 * The IQM over every task's scores with its 95 % stratified-bootstrap percentile interval: each
 * replicate redraws, with replacement, as many scores from each task as it has, then takes the IQM
 * of them all. Null when no task has a score.
 */
export function iqmWithInterval(tasks: readonly (readonly number[])[], opts: { replicates?: number; seed?: number } = {}): Estimate | null {
  const filled = tasks.filter((t) => t.length > 0);
  if (filled.length === 0) return null;
  const value = iqm(filled.flat());
  const replicates = opts.replicates ?? 2000;
  const rng = new SeededRandom(opts.seed ?? 0);
  // The page renders this for every entry it shows: one buffer, sorted in place as numbers, not an array per replicate.
  const sample = new Float64Array(filled.reduce((n, t) => n + t.length, 0));
  const draws = new Float64Array(replicates);
  for (let r = 0; r < replicates; r++) {
    let k = 0;
    for (const t of filled) for (let i = 0; i < t.length; i++) sample[k++] = t[Math.floor(rng.next() * t.length)];
    draws[r] = sortedIqm(sample.sort());
  }
  draws.sort();
  const at = (q: number) => draws[Math.min(draws.length - 1, Math.max(0, Math.round(q * (draws.length - 1))))];
  return { value, lo: at(0.025), hi: at(0.975) };
}

/** Whether two intervals share a point: the difference between their entries is not established. */
export function overlap(a: Interval, b: Interval): boolean {
  return a.lo <= b.hi && b.lo <= a.hi;
}
