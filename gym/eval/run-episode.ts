import type { Env } from '../core/env';
import type { ArcadeEnv, ResetInfo, StepInfo } from '../env/env';
import type { Observation } from '../env/observation';
import type { Agent } from '../agents/agent';
import type { Action } from '../schema/action';
import type { GameManifest } from '../schema/manifest';
import type { EpisodeRecord } from '../schema/records';

/** Any gym/core Env of one arcade game whose last step carries the episode record: ArcadeEnv, PooledEnv, an HTTP Session. */
export type GameEnv = Env<Observation, Action | number, ResetInfo, StepInfo> & { readonly manifest: GameManifest };

/**
 * Plays one episode of `agent` in `env` from `seed` to termination or truncation. `onReset` runs
 * once the episode's page is ready (an evaluation loads its next seed in a spare tab there).
 */
export async function runEpisode(env: GameEnv, agent: Agent, seed: number, onReset?: () => void): Promise<EpisodeRecord> {
  let { observation, info } = await env.reset({ seed });
  onReset?.();
  await agent.reset({ manifest: env.manifest, seed });
  let state = info.state;
  let actionMask = info.actionMask;
  for (let step = 0; ; step++) {
    const action = await agent.act({ observation, state, step, ...(actionMask ? { actionMask } : {}) });
    const r = await env.step(action);
    if (r.info.episode) return r.info.episode;
    observation = r.observation;
    state = r.info.state;
    actionMask = r.info.actionMask;
  }
}

/** Replays a fixed action list from `seed`; stops early if the episode ends first. */
export async function replayActions(env: ArcadeEnv, seed: number, actions: readonly (number | import('../schema/action').GuiAction)[]): Promise<EpisodeRecord> {
  await env.reset({ seed });
  for (const action of actions) {
    const r = await env.step(action);
    if (r.info.episode) return r.info.episode;
  }
  return env.currentEpisodeRecord();
}
