/** Small statistics helpers for logging, over the entries where `mask` (if given) is set. */

function masked(x: ArrayLike<number>, mask?: ArrayLike<number | boolean>): number[] {
  const out: number[] = [];
  for (let i = 0; i < x.length; i++) if (!mask || mask[i]) out.push(x[i]);
  return out;
}

export function mean(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return x.length > 0 ? s / x.length : NaN;
}

/** Population variance (numpy's default). */
export function variance(x: ArrayLike<number>): number {
  const m = mean(x);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] - m) ** 2;
  return x.length > 0 ? s / x.length : NaN;
}

/** 1 − Var(returns − values) / Var(returns), as CleanRL logs it; NaN when Var(returns) = 0. */
export function explainedVariance(values: ArrayLike<number>, returns: ArrayLike<number>, mask?: ArrayLike<number | boolean>): number {
  const v = masked(values, mask);
  const r = masked(returns, mask);
  const varR = variance(r);
  if (!(varR > 0)) return NaN;
  return 1 - variance(r.map((ri, i) => ri - v[i])) / varR;
}

/** Pearson correlation; NaN when either side is constant. */
export function pearson(a: ArrayLike<number>, b: ArrayLike<number>, mask?: ArrayLike<number | boolean>): number {
  const x = masked(a, mask);
  const y = masked(b, mask);
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
}

/** In place: (x − mean) / (std + 1e-8) over the masked entries; others become 0. */
export function standardize(x: Float32Array, mask?: ArrayLike<number | boolean>): void {
  const m = masked(x, mask);
  const mu = mean(m);
  const sd = Math.sqrt(variance(m));
  for (let i = 0; i < x.length; i++) x[i] = !mask || mask[i] ? (x[i] - mu) / (sd + 1e-8) : 0;
}

/** JSON cannot hold NaN/Infinity; metrics store null instead. */
export function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
