import type { CatalogEntry } from '../catalog-schema';
import type { PolicyAgent } from '../ppo/policy-agent';
import { MacroDriver, macroPlannerFor, nextPolicyKey } from '../actions';

export interface LivePlayOptions {
  game: CatalogEntry;
  agent: PolicyAgent;
  /** The live ticket's reset and step URLs (`ticket.live.resetUrl`, `stepUrl`), on this page's server. */
  resetUrl: string;
  stepUrl: string;
  /** Its episodes. */
  episodes: number;
  /** The token's Authorization header, with the JSON content type. */
  headers: Record<string, string>;
  onEpisode?: (score: number, index: number) => void;
}

interface LiveAnswer {
  observation: { state?: unknown; vector?: number[] };
  terminated?: boolean;
  truncated?: boolean;
  info: { state?: unknown; score: number; actionMask?: number[]; ticket?: { submission?: unknown } };
  error?: { code?: string; message?: string };
}

/**
 * Plays a live ticket (`"mode": "live"`, its observation state and vector) with a trained policy
 * of this page: the server holds the seeds and plays the pages, this page only picks each action
 * from the observation and mask it is sent, as `arcade-gym eval --live` does. Returns the closing
 * step's `info.ticket.submission`: the status document of the run the server submitted, with its status URL.
 */
export async function playLiveTicket(o: LivePlayOptions): Promise<unknown> {
  // A policy trained over macro decisions plays them key by key, as in evaluatePolicy.
  const planner = await macroPlannerFor(o.agent.provenance?.actions, o.game);
  const driver = planner ? new MacroDriver(planner) : null;
  const post = async (url: string, body: unknown): Promise<LiveAnswer> => {
    const res = await fetch(url, { method: 'POST', headers: o.headers, body: JSON.stringify(body) });
    const answer = (await res.json().catch(() => ({}))) as LiveAnswer;
    if (!res.ok) throw new Error(`the live ticket was refused (${res.status} ${answer.error?.code ?? ''}): ${answer.error?.message ?? res.statusText}`);
    return answer;
  };
  let submission: unknown;
  for (let i = 0; i < o.episodes; i++) {
    driver?.reset();
    let r = await post(o.resetUrl, {});
    for (;;) {
      const vector = r.observation.vector;
      if (!vector) throw new Error('the live ticket sends no vector observation: draw it with observation ["state", "vector"]');
      const mask = r.info.actionMask;
      const keyMask = !driver || driver.planner.singleKey ? mask : undefined;
      const action = await nextPolicyKey(
        driver,
        r.info.state ?? r.observation.state,
        () => vector,
        (obs) => o.agent.act(obs, keyMask),
      );
      r = await post(o.stepUrl, { action });
      if (r.terminated || r.truncated) break;
    }
    o.onEpisode?.(r.info.score, i);
    submission = r.info.ticket?.submission ?? submission;
  }
  return submission;
}
