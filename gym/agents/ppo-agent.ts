import { z } from 'zod';
import { ArcadeGymError } from '../errors';
import type { Agent } from './agent';
import { MacroDriver, macroPlannerFor, nextPolicyKey } from '../actions';

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
  // A policy over macro decisions (gym/actions) plays them key by key, as it was trained.
  let driver: MacroDriver | null = null;
  return {
    name: 'ppo',
    observation: [pixels ? 'pixels' : 'vector'],
    reset({ manifest }) {
      const planner = macroPlannerFor(policy.provenance?.actions, manifest);
      if (planner && planner.numDecisions !== policy.net.numActions) {
        throw new ArcadeGymError(
          'INVALID_OPTIONS',
          `ppo agent: the checkpoint has ${policy.net.numActions} actions, ${policy.provenance?.actions?.kind} on ${manifest.id} has ${planner.numDecisions}`,
        );
      }
      driver = planner ? new MacroDriver(planner) : null;
    },
    async act({ observation, state }) {
      const obs = () => {
        const o = pixels ? observation.pixels?.data : observation.vector;
        if (!o) throw new ArcadeGymError('INVALID_OPTIONS', `ppo agent: the env returned no ${pixels ? 'pixels' : 'vector'} observation`);
        return o;
      };
      return nextPolicyKey(driver, state, obs, (o) => policy.act(o));
    },
  };
}
