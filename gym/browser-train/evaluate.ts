import type { CatalogEntry } from '../catalog-schema';
import type { PolicyAgent } from '../ppo/policy-agent';
import type { EpisodeRecord } from '../schema/records';
import { FrameEnv } from './frame-env';
import { MacroDriver, macroPlannerFor, nextPolicyKey } from '../actions';

export interface EvaluationOptions {
  game: CatalogEntry;
  agent: PolicyAgent;
  seeds: readonly number[];
  /** A ticket's settings (default: the manifest's). */
  stepBudget?: number;
  msPerStep?: number;
  /** Where the episode's frame goes (made here, removed after). */
  container: HTMLElement;
  onEpisode?: (record: EpisodeRecord, index: number) => void;
}

/**
 * Plays one episode per seed with `agent` in a frame of this page and returns the episode
 * records, the same records `arcade-gym eval` writes (the server replays them from seed + actions).
 */
export async function evaluatePolicy(o: EvaluationOptions): Promise<EpisodeRecord[]> {
  // A policy trained over macro decisions (a preset's `actions`) plays them key by key, as `eval --agent ppo` does.
  const planner = await macroPlannerFor(o.agent.provenance?.actions, o.game);
  const driver = planner ? new MacroDriver(planner) : null;
  const iframe = o.container.ownerDocument.createElement('iframe');
  iframe.title = `${o.game.manifest.title} evaluation`;
  o.container.appendChild(iframe);
  const env = new FrameEnv(iframe, o.game, { seed: o.seeds[0] ?? 0, maxSteps: o.stepBudget, msPerStep: o.msPerStep, keepRecords: true, paint: true });
  const records: EpisodeRecord[] = [];
  try {
    for (const [i, seed] of o.seeds.entries()) {
      driver?.reset();
      const first = await env.reset({ seed });
      let { observation } = first;
      let state: unknown = first.info.state;
      let mask = first.info.actionMask;
      for (;;) {
        const vector = observation.vector;
        // The preset's mask applies when the policy picks preset keys, as in `eval --agent ppo`.
        const keyMask = !driver || driver.planner.singleKey ? mask : undefined;
        const action = await nextPolicyKey(
          driver,
          state,
          () => vector!,
          (obs) => o.agent.act(obs, keyMask),
        );
        const r = env.step(action);
        observation = r.observation;
        state = r.info.state;
        mask = r.info.actionMask;
        if (r.terminated || r.truncated) {
          records.push(r.info.episode!);
          o.onEpisode?.(r.info.episode!, i);
          break;
        }
        // Let the page draw and answer input between steps.
        if (env.account!.length % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
  } finally {
    env.close();
    iframe.remove();
  }
  return records;
}
