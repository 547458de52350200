import { pcgHash } from '../nn/hash-rng';

/** Independent seeds for the run's random streams, all derived from config.seed. */
export const SeedStream = { shuffle: 1, sampling: 2, grpoStarts: 3 } as const;

export function deriveSeed(seed: number, stream: number): number {
  return pcgHash((seed + Math.imul(stream, 0x9e3779b9)) >>> 0);
}
