/**
 * BENCH_SMOKE=1: every bench's smoke mode. Each measurement runs for a moment (a few steps,
 * one game, one seed) through the same code as the full bench and still prints its table and
 * its JSON last line, so bench/smoke.test.ts (part of `npm test`) notices a bench that no
 * longer runs. Smoke figures measure nothing worth keeping.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** The full bench's default, or the smoke mode's. */
export const smokeOr = <T>(full: T, smoke: T): T => (SMOKE ? smoke : full);
