import { SyncVectorEnv } from '../core/sync-vector-env';
import type { AutoresetMode } from '../core/vector-env';
import { CARTPOLE, CartPole } from './cartpole';

export interface CartPoleVectorOptions {
  /** Gymnasium 1.0 autoreset semantics (gym/core/vector-env.ts). Default 'next-step'. */
  autoreset?: AutoresetMode;
  /** Seed of env i's RNG before the first seeded reset is seed + i (default 0 + i). */
  seed?: number;
}

/** `numEnvs` independent CartPoles in a SyncVectorEnv (Gymnasium's gym.make_vec("CartPole-v1")). */
export class CartPoleVectorEnv extends SyncVectorEnv<Float32Array, number> {
  constructor(numEnvs: number, options: CartPoleVectorOptions = {}) {
    if (!Number.isInteger(numEnvs) || numEnvs < 1) throw new Error(`numEnvs must be a positive integer, got ${numEnvs}`);
    super(
      Array.from({ length: numEnvs }, (_, i) => () => new CartPole((options.seed ?? 0) + i)),
      { autoreset: options.autoreset },
    );
  }
}

/**
 * CartPole as a learner (train, grpo) takes it: `numEnvs` CartPoles with their observation shape
 * and action count. Spread it into the learner's options beside the backend and config.
 */
export function cartPoleTask(numEnvs: number, options: CartPoleVectorOptions = {}): { env: CartPoleVectorEnv; obsShape: number[]; numActions: number } {
  return { env: new CartPoleVectorEnv(numEnvs, options), obsShape: [CARTPOLE.obsSize], numActions: CARTPOLE.numActions };
}
