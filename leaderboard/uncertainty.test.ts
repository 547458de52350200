import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../gym/random';
import { iqm, iqmWithInterval, meanInterval, overlap } from './uncertainty';

describe('leaderboard uncertainty', () => {
  it("takes the t-interval of a mean, Student's for few samples, none for one", () => {
    expect(meanInterval(10, 2, 1)).toBeNull();
    const three = meanInterval(10, 2, 3)!;
    expect(three.hi - 10).toBeCloseTo((4.303 * 2) / Math.sqrt(3), 6);
    expect(10 - three.lo).toBeCloseTo(three.hi - 10, 9);
    expect(meanInterval(10, 2, 100)!.hi - 10).toBeCloseTo((1.96 * 2) / 10, 6);
  });

  it('cuts a quarter from each end for the interquartile mean, as scipy trim_mean(0.25)', () => {
    expect(iqm([1, 2, 3, 4])).toBe(2.5);
    expect(iqm([0, 1, 2, 3, 4, 5, 6, 100])).toBe(3.5);
    expect(iqm([5])).toBe(5);
    // An outlier moves the mean a lot and the IQM not at all.
    expect(iqm([1, 1, 1, 1, 1, 1, 1, 1000])).toBe(1);
  });

  it('brackets the IQM with a stratified bootstrap that is seeded, narrows with more seeds, and tells separated agents apart', () => {
    const rng = new SeededRandom(3);
    const tasks = (n: number, centre: number) => [0, 1, 2].map(() => Array.from({ length: n }, () => centre + (rng.next() - 0.5) * 40));
    const few = iqmWithInterval(tasks(3, 50), { seed: 1 })!;
    expect(few.lo).toBeLessThanOrEqual(few.value);
    expect(few.hi).toBeGreaterThanOrEqual(few.value);
    const same = tasks(5, 50);
    expect(iqmWithInterval(same, { seed: 7 })).toEqual(iqmWithInterval(same, { seed: 7 }));
    const many = iqmWithInterval(tasks(40, 50), { seed: 1 })!;
    expect(many.hi - many.lo).toBeLessThan(few.hi - few.lo);
    const far = iqmWithInterval(tasks(10, 150), { seed: 1 })!;
    const near = iqmWithInterval(tasks(10, 52), { seed: 1 })!;
    const base = iqmWithInterval(tasks(10, 50), { seed: 1 })!;
    expect(overlap(base, near)).toBe(true);
    expect(overlap(base, far)).toBe(false);
    expect(iqmWithInterval([[], []])).toBeNull();
  });
});
