import { z } from 'zod';
import { ArcadeGymError } from '../errors';
import type { Agent } from './agent';

const PpoAgentOptions = z.object({
  checkpoint: z.string({ error: 'the ppo agent needs --checkpoint <policy.agckpt or checkpoint.agckpt>' }).min(1),
  backend: z.enum(['webgpu', 'cpu', 'auto']).default('cpu'),
  mode: z.enum(['greedy', 'sample']).default('greedy'),
});

/**
 * A trained policy (gym/ppo checkpoint) playing through the gym. A policy trained on pixels
 * (a 3-d observation shape) reads pixel observations, otherwise the verifier's vector.
 */
export async function createPpoAgent(options: Record<string, unknown>): Promise<Agent> {
  const parsed = PpoAgentOptions.safeParse(options);
  if (!parsed.success) throw new ArcadeGymError('INVALID_OPTIONS', `ppo agent: ${parsed.error.issues[0].message}`);
  const { loadPolicy } = await import('../ppo');
  const policy = await loadPolicy(parsed.data.checkpoint, parsed.data.backend, { mode: parsed.data.mode });
  const pixels = policy.encoder.obsShape.length === 3;
  return {
    name: 'ppo',
    observation: [pixels ? 'pixels' : 'vector'],
    reset() {},
    async act({ observation }) {
      const obs = pixels ? observation.pixels?.data : observation.vector;
      if (!obs) throw new ArcadeGymError('INVALID_OPTIONS', `ppo agent: the env returned no ${pixels ? 'pixels' : 'vector'} observation`);
      return policy.act(obs);
    },
  };
}
