/**
 * Shared by the *.test.ts files: a WebGPU backend on SwiftShader when available, random
 * data, and tolerance comparisons. WebGPU suites skip with a visible notice when no adapter
 * exists, except under CI (process.env.CI set), where they fail instead.
 */
import { describe, it } from 'vitest';
import type { Backend } from './backend';
import { Rng } from './rng';
import { createNodeGpu, preferSwiftShaderWhenUnset } from './webgpu/node-gpu';
import { WebGpuBackend } from './webgpu/webgpu-backend';

let acquired: Promise<WebGpuBackend | null> | null = null;

export function acquireTestWebGpu(): Promise<WebGpuBackend | null> {
  acquired ??= (async () => {
    preferSwiftShaderWhenUnset();
    return WebGpuBackend.create(await createNodeGpu());
  })();
  return acquired;
}

/** Software rasterisers on a busy 2-core machine are slow: WebGPU suites get a generous per-test limit. */
export const WEBGPU_TEST_TIMEOUT_MS = 120_000;

/** describe() that runs with a WebGPU backend, skips visibly without one, and fails in CI. */
export function describeWebGpu(name: string, gpu: WebGpuBackend | null, body: (backend: WebGpuBackend) => void): void {
  if (gpu) {
    describe(`${name} [${gpu.info}]`, { timeout: WEBGPU_TEST_TIMEOUT_MS }, () => body(gpu));
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      it('needs a WebGPU adapter (required when CI is set)', () => {
        throw new Error('requestAdapter() returned null; WebGPU tests must run in CI');
      });
    });
    return;
  }
  console.warn(`\n[webgpu] NOTICE: no WebGPU adapter (requestAdapter() returned null); skipping "${name}".\n`);
  describe.skip(name, () => {
    it('skipped: no WebGPU adapter', () => {});
  });
}

export function randomArray(rng: Rng, n: number, scale = 1): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = (rng.uniform() * 2 - 1) * scale;
  return a;
}

/** Largest |a−b| / (atol + rtol·|b|); ≤ 1 means within tolerance. */
export function toleranceRatio(actual: ArrayLike<number>, expected: ArrayLike<number>, atol: number, rtol: number): number {
  if (actual.length !== expected.length) throw new Error(`length ${actual.length} ≠ ${expected.length}`);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) {
    const r = Math.abs(actual[i] - expected[i]) / (atol + rtol * Math.abs(expected[i]));
    if (!(r <= worst)) worst = Number.isNaN(r) ? Infinity : Math.max(worst, r);
  }
  return worst;
}

export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, atol: number, rtol: number, what = 'values'): void {
  const ratio = toleranceRatio(actual, expected, atol, rtol);
  if (ratio > 1) {
    let at = 0;
    let worst = -1;
    for (let i = 0; i < actual.length; i++) {
      const r = Math.abs(actual[i] - expected[i]) / (atol + rtol * Math.abs(expected[i]));
      if (!(r <= worst)) {
        worst = r;
        at = i;
      }
    }
    throw new Error(`${what}: element ${at} is ${actual[at]}, expected ${expected[at]} (atol ${atol}, rtol ${rtol})`);
  }
}

/** Uploads the same data to several backends. */
export function upload(backends: Backend[], shape: number[], data: Float32Array) {
  return backends.map((b) => b.tensor(shape, data));
}
