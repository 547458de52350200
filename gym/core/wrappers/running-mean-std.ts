/** Running mean and variance state, JSON-serialisable (checkpoints keep it). */
export interface RunningMeanStdState {
  mean: number[];
  var: number[];
  count: number;
}

/**
 * Gymnasium's RunningMeanStd: per-element mean and (population) variance of everything seen,
 * merged batch by batch with the parallel algorithm (Chan et al.). Starts at mean 0, var 1
 * and a count of `epsilon`, as Gymnasium's does, so the first batch dominates without
 * dividing by zero.
 */
export class RunningMeanStd {
  mean: Float64Array;
  var: Float64Array;
  count: number;

  constructor(
    readonly size: number,
    epsilon = 1e-4,
  ) {
    this.mean = new Float64Array(size);
    this.var = new Float64Array(size).fill(1);
    this.count = epsilon;
  }

  /** Adds a batch of `n` rows (row-major, `size` values each). */
  update(batch: ArrayLike<number>, n: number): void {
    const d = this.size;
    if (batch.length !== n * d) throw new Error(`RunningMeanStd: ${batch.length} values are not ${n} rows of ${d}`);
    const total = this.count + n;
    for (let j = 0; j < d; j++) {
      let m = 0;
      for (let r = 0; r < n; r++) m += batch[r * d + j];
      m /= n;
      let v = 0;
      for (let r = 0; r < n; r++) v += (batch[r * d + j] - m) ** 2;
      v /= n;
      const delta = m - this.mean[j];
      const m2 = this.var[j] * this.count + v * n + delta * delta * ((this.count * n) / total);
      this.mean[j] += (delta * n) / total;
      this.var[j] = m2 / total;
    }
    this.count = total;
  }

  getState(): RunningMeanStdState {
    return { mean: Array.from(this.mean), var: Array.from(this.var), count: this.count };
  }

  setState(s: RunningMeanStdState): void {
    if (s.mean.length !== this.size || s.var.length !== this.size) throw new Error(`RunningMeanStd: state has ${s.mean.length} values, expected ${this.size}`);
    this.mean = Float64Array.from(s.mean);
    this.var = Float64Array.from(s.var);
    this.count = s.count;
  }

  static fromState(s: RunningMeanStdState): RunningMeanStd {
    const r = new RunningMeanStd(s.mean.length);
    r.setState(s);
    return r;
  }
}

/** (x − mean) / √(var + epsilon), into a new Float32Array. */
export function normalizeWith(rms: RunningMeanStd, x: ArrayLike<number>, epsilon: number): Float32Array {
  const out = new Float32Array(x.length);
  for (let j = 0; j < x.length; j++) out[j] = (x[j] - rms.mean[j]) / Math.sqrt(rms.var[j] + epsilon);
  return out;
}
