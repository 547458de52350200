/**
 * The project's one seeded random number generator (sfc32 seeded through splitmix32), used by
 * the in-page runtime (Math.random, crypto), the envs' seed sequences, the agents, CartPole
 * and the trainer. No Node or DOM imports: the runtime bundles it into every game page.
 */
export { SeededRandom } from './seeded-random';
export { Rng, type RngState } from './rng';
