import { describe, expect, it } from 'vitest';
import { episodeStream, repeatsAt, stickyExecuted, stickyFor } from './sticky-actions';

const STEPS = 20_000;
const repeatsOf = (p: number, seed: number) => Array.from({ length: STEPS }, (_, i) => repeatsAt({ p, seed }, i));

describe('sticky actions: stateless draws from a stream seed', () => {
  it('repeat at rate p, never on the first step, always at p = 1', () => {
    for (const p of [0.1, 0.25, 0.5]) {
      const rate = repeatsOf(p, 12345).filter(Boolean).length / STEPS;
      // Binomial sd at 20k draws is at most 0.0036: four of them.
      expect(Math.abs(rate - p), `p = ${p}: rate ${rate}`).toBeLessThan(0.015);
    }
    expect(repeatsAt({ p: 1, seed: 3 }, 0)).toBe(false);
    expect(repeatsOf(1, 3).slice(1).every(Boolean)).toBe(true);
    expect(repeatsOf(0, 3).some(Boolean)).toBe(false);
  });

  it('runs of repeats are as long as independent draws make them (no correlation between neighbouring steps)', () => {
    const r = repeatsOf(0.25, 99);
    const both = r.slice(1).filter((x, i) => x && r[i]).length / (STEPS - 1);
    expect(Math.abs(both - 0.25 * 0.25)).toBeLessThan(0.01);
  });

  it('each episode of a sequence, and each stream seed, draws its own repeats', () => {
    const of = (streamSeed: number, episodeSeed: number) =>
      repeatsOf(0.25, episodeStream({ p: 0.25, seed: streamSeed }, episodeSeed).seed)
        .slice(0, 200)
        .join();
    const a = of(0, 1);
    expect(of(0, 1)).toBe(a);
    expect(of(0, 2)).not.toBe(a);
    expect(of(777, 1)).not.toBe(a);
  });

  it('executed actions: the previous one where the stream repeats, and replaying them gives them again', () => {
    const sticky = { p: 0.5, seed: 42 };
    const stream = episodeStream(sticky, 9);
    const given = Array.from({ length: 500 }, (_, i) => i);
    const executed = stickyExecuted(given, sticky, 9);
    for (let i = 0; i < given.length; i++) expect(executed[i]).toBe(repeatsAt(stream, i) ? executed[i - 1] : i);
    expect(executed.filter((a, i) => a !== i).length).toBeGreaterThan(150);
    expect(stickyExecuted(executed, sticky, 9)).toEqual(executed);
    expect(stickyExecuted(given, sticky, 10)).not.toEqual(executed);
    expect(stickyExecuted(given, undefined, 9)).toEqual(given);
  });

  it('stickyFor: off at p = 0, else p and the stream seed (0 without one)', () => {
    expect(stickyFor({ stickyActions: 0 })).toEqual({});
    expect(stickyFor({ stickyActions: 0.25, stickySeed: 9 })).toEqual({ sticky: { p: 0.25, seed: 9 } });
    expect(stickyFor({ stickyActions: 0.25 })).toEqual({ sticky: { p: 0.25, seed: 0 } });
  });
});
