/**
 * Shared by the *.test.ts files: a WebGPU backend (SwiftShader when no GPU is set up), random
 * data, and tolerance comparisons. Without an adapter, WebGPU suites fail: the Chromium the
 * tests need anyway ships the SwiftShader Vulkan driver, so there is always one to find.
 */
import { describe, it } from 'vitest';
import type { Backend } from './backend';
import type { Rng } from '../random/rng';
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

/** describe() that runs with a WebGPU backend, and fails, saying why, without one. */
export function describeWebGpu(name: string, gpu: WebGpuBackend | null, body: (backend: WebGpuBackend) => void): void {
  if (gpu) {
    describe(`${name} [${gpu.info}]`, { timeout: WEBGPU_TEST_TIMEOUT_MS }, () => body(gpu));
    return;
  }
  describe(name, () => {
    it('needs a WebGPU adapter', () => {
      throw new Error('requestAdapter() returned null: install Chromium (its SwiftShader Vulkan driver) or set VK_ICD_FILENAMES to a Vulkan driver');
    });
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
