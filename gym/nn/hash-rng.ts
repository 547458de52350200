/**
 * Counter-based uniforms for on-device sampling. A stateless hash of (seed, counter, row)
 * means a kernel needs no RNG state, and the CPU backend reproduces exactly the uniforms a
 * WGSL kernel draws. The WGSL twin is HASH_WGSL below; keep the two in sync.
 */

/** PCG-RXS-M-XS 32-bit hash (Jarzynski & Olano, "Hash Functions for GPU Rendering", 2020). */
export function pcgHash(input: number): number {
  const state = (Math.imul(input >>> 0, 747796405) + 2891336453) >>> 0;
  const word = Math.imul(((state >>> ((state >>> 28) + 4)) ^ state) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

/** A uniform in [0, 1) with 24 random bits, exactly representable in float32. */
export function hashUniform(seed: number, counter: number, row: number): number {
  const h = pcgHash((seed >>> 0) ^ pcgHash((counter >>> 0) ^ pcgHash(row >>> 0)));
  return (h >>> 8) / 16777216;
}

export const HASH_WGSL = /* wgsl */ `
fn pcg_hash(v: u32) -> u32 {
  let state = v * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}
fn hash_uniform(seed: u32, counter: u32, row: u32) -> f32 {
  let h = pcg_hash(seed ^ pcg_hash(counter ^ pcg_hash(row)));
  return f32(h >> 8u) / 16777216.0;
}
`;
