/**
 * The seeded PRNG for parameter initialisation and minibatch shuffles: sfc32 through
 * splitmix32 (SeededRandom), with a serialisable state. Identical in every JavaScript engine.
 */
import { SeededRandom } from './seeded-random';

export type RngState = [number, number, number, number];

/** The games' generator (one algorithm in the whole project), with what training needs on top. */
export class Rng extends SeededRandom {
  static fromState(state: RngState): Rng {
    const rng = new Rng(0);
    rng.setState(state);
    return rng;
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    return this.next();
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.uniform() * n);
  }

  /** Standard normal (Box–Muller; the second variate is dropped so the state stays four words). */
  normal(): number {
    let u = 0;
    while (u === 0) u = this.uniform();
    const v = this.uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A uniformly random permutation of 0..n-1 (Fisher–Yates). */
  permutation(n: number): Uint32Array {
    const p = new Uint32Array(n);
    for (let i = 0; i < n; i++) p[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}
