import type { Rng } from '../random/rng';

/**
 * Orthogonal initialisation (Saxe et al. 2014) scaled by `gain`, as CleanRL's layer_init
 * does with torch.nn.init.orthogonal_. Gram–Schmidt on a Gaussian matrix gives the
 * Q of a QR decomposition with positive diag(R), i.e. a Haar-distributed orthogonal matrix.
 * The result is [rows, cols] row-major with orthonormal columns (rows ≥ cols) or rows.
 */
export function orthogonal(rng: Rng, rows: number, cols: number, gain: number): Float32Array {
  const long = Math.max(rows, cols);
  const short = Math.min(rows, cols);
  // q[j] is the j-th orthonormal vector of length `long`.
  const q: Float64Array[] = [];
  for (let j = 0; j < short; j++) {
    let v = new Float64Array(long);
    for (let attempt = 0; ; attempt++) {
      for (let i = 0; i < long; i++) v[i] = rng.normal();
      for (const u of q) {
        let dot = 0;
        for (let i = 0; i < long; i++) dot += u[i] * v[i];
        for (let i = 0; i < long; i++) v[i] -= dot * u[i];
      }
      let norm = 0;
      for (let i = 0; i < long; i++) norm += v[i] * v[i];
      norm = Math.sqrt(norm);
      if (norm > 1e-6) {
        for (let i = 0; i < long; i++) v[i] /= norm;
        break;
      }
      if (attempt > 10) throw new Error('orthogonal init failed to find an independent vector');
      v = new Float64Array(long);
    }
    q.push(v);
  }
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[r * cols + c] = gain * (rows >= cols ? q[c][r] : q[r][c]);
  return out;
}
