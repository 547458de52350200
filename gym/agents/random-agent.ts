import { SeededRandom } from '../random/seeded-random';
import type { Agent, AgentContext } from './agent';

/** Uniform over the game's discrete preset, seeded from the episode seed. */
export function createRandomAgent(): Agent {
  let rng = new SeededRandom(0);
  let n = 1;
  return {
    name: 'random',
    reset(ctx: AgentContext) {
      rng = new SeededRandom(ctx.seed ^ 0x5eed);
      n = ctx.manifest.preset.length;
    },
    act() {
      return Math.floor(rng.next() * n);
    },
  };
}
