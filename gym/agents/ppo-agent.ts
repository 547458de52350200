import { z } from 'zod';
import { ArcadeGymError } from '../errors';
import type { Agent } from './agent';
import type { PixelOptions } from '../env/options';
import { concatFrames, pushFrame } from '../core/wrappers/frame-stack';
import { gameSpecificActions, MacroDriver, macroPlannerFor, nextPolicyKey } from '../actions';
import { getGame } from '../catalog';

const PpoAgentOptions = z.object({
  checkpoint: z.string({ error: 'the ppo agent needs --checkpoint <policy.agckpt or checkpoint.agckpt>' }).min(1),
  backend: z.enum(['webgpu', 'cpu', 'auto']).default('cpu'),
  mode: z.enum(['greedy', 'sample']).default('greedy'),
});

/**
 * A trained policy (gym/ppo checkpoint) playing through the gym. A policy trained on pixels
 * (a 3-d observation shape) reads pixel observations of the size and colour it was trained on,
 * stacked as in training when it read several frames; otherwise it reads the verifier's vector.
 */
export async function createPpoAgent(options: Record<string, unknown>): Promise<Agent> {
  const parsed = PpoAgentOptions.safeParse(options);
  if (!parsed.success) throw new ArcadeGymError('INVALID_OPTIONS', `ppo agent: ${parsed.error.issues[0].message}`);
  const { loadPolicy } = await import('../ppo');
  const policy = await loadPolicy(parsed.data.checkpoint, parsed.data.backend, { mode: parsed.data.mode });
  const pixels = policy.encoder.obsShape.length === 3;
  const frames = pixels ? pixelFrames(policy.encoder.obsShape, policy.encoder.pixelLayout) : null;
  const stackSize = frames?.stack ?? 1;
  let stacked: ArrayLike<number>[] = [];
  // A policy over macro decisions (gym/actions) plays them key by key, as it was trained.
  let driver: MacroDriver | null = null;
  return {
    name: 'ppo',
    observation: [pixels ? 'pixels' : 'vector'],
    ...(frames ? { pixels: frames.pixels } : {}),
    async reset({ manifest }) {
      stacked = [];
      const actions = policy.provenance?.actions;
      const planner = gameSpecificActions(actions) ? await macroPlannerFor(actions, getGame(manifest.id)) : null;
      if (planner && planner.numDecisions !== policy.net.numActions) {
        throw new ArcadeGymError(
          'INVALID_OPTIONS',
          `ppo agent: the checkpoint has ${policy.net.numActions} actions, ${policy.provenance?.actions?.kind} on ${manifest.id} has ${planner.numDecisions}`,
        );
      }
      driver = planner ? new MacroDriver(planner) : null;
    },
    async act({ observation, state, actionMask }) {
      const o = pixels ? observation.pixels?.data : observation.vector;
      if (!o) throw new ArcadeGymError('INVALID_OPTIONS', `ppo agent: the env returned no ${pixels ? 'pixels' : 'vector'} observation`);
      // Every step's frame joins the stack, decided on or not; an episode's first fills it (as in training).
      if (stackSize > 1) stacked = pushFrame(stacked, o, stackSize, false);
      const obs = () => (stackSize > 1 ? concatFrames(stacked, true) : o);
      // The mask is the preset's: it applies when the policy picks preset keys (no driver, or one-key decisions).
      const mask = !driver || driver.planner.singleKey ? actionMask : undefined;
      return nextPolicyKey(driver, state, obs, (o) => policy.act(o, mask));
    },
  };
}

/**
 * The pixels a policy's observation shape was made of: [H, W, C] ('hwc', one frame, C = 1 grayscale or 3 RGB)
 * or [k, H, W] ('chw', k stacked grayscale frames; see observationShape in gym/ppo/train-settings.ts).
 */
export function pixelFrames(obsShape: readonly number[], layout: 'hwc' | 'chw'): { pixels: PixelOptions; stack: number } {
  if (layout === 'chw') return { pixels: { height: obsShape[1], width: obsShape[2], grayscale: true }, stack: obsShape[0] };
  if (obsShape[2] !== 1 && obsShape[2] !== 3)
    throw new ArcadeGymError('INVALID_OPTIONS', `ppo agent: pixels of ${obsShape[2]} channels ([${obsShape}]) are neither grayscale nor RGB`);
  return { pixels: { height: obsShape[0], width: obsShape[1], grayscale: obsShape[2] === 1 }, stack: 1 };
}
