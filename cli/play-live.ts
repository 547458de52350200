/**
 * `arcade-gym eval --live`: plays a live ticket (leaderboard/live-play.ts) with a built-in agent.
 * The server holds the seeds and the pages; this client only sees what any agent sees (the
 * observation, reward and infos of each step) and sends actions. When the last episode ends the
 * server submits the run itself, and this follows it to its verdict like `submit`.
 */
import { getGame, loadCatalog } from '../gym/catalog';
import { ALL_GAMES_SUITE } from '../leaderboard/scoring';
import type { Observation } from '../gym';
import { type Agent, createAgent, type AgentOptions } from '../gym/agents';
import type { ObservationKind, VerifierState } from '../gym/schema';
import { ApiCallError, callApi, type ServerAuth } from '../leaderboard/client';
import { type AcceptedRun, type LiveClaims, SubmissionStatus } from '../leaderboard/submission-schema';
import { TicketJson } from '../leaderboard/ticket-schema';
import { UsageError } from './command';
import { followRun } from './send-run';

export interface PlayLiveOptions {
  gameId?: string;
  suite?: string;
  seedsPerGame?: number;
  /** The leaderboard name the server submits the run under. */
  name: string;
  agent: string;
  agentOptions: AgentOptions;
  observation: ObservationKind[];
  stepDeadlineMs?: number;
  /** What the agent is (harness, how it was trained), sent before the first episode; the run carries it as claimed. */
  claims?: LiveClaims;
  waitTimeoutS: number;
}

interface LiveInfo {
  state?: VerifierState;
  score: number;
  actionMask?: number[];
  ticket?: TicketJson & { submission: unknown };
}
interface LiveAnswer {
  observation: {
    state?: VerifierState;
    vector?: number[];
    pixels?: { width: number; height: number; channels: 1 | 3; data: string };
    screenshot?: { format: 'png' | 'jpeg'; data: string };
  };
  reward?: number;
  terminated?: boolean;
  truncated?: boolean;
  info: LiveInfo;
}

/** A live answer's observation, as the local env would give it. */
function observationOf(o: LiveAnswer['observation']): Observation {
  return {
    ...(o.state ? { state: o.state } : {}),
    ...(o.vector ? { vector: Float32Array.from(o.vector) } : {}),
    ...(o.pixels
      ? { pixels: { width: o.pixels.width, height: o.pixels.height, channels: o.pixels.channels, data: new Uint8Array(Buffer.from(o.pixels.data, 'base64')) } }
      : {}),
    ...(o.screenshot ? { screenshot: Buffer.from(o.screenshot.data, 'base64') } : {}),
  };
}

/**
 * What the ticket's sessions must observe: what was asked and what the agent reads (a model agent
 * reads screenshots, a policy its vector or pixels), as a local evaluation adds it. The ticket
 * fixes it for all its episodes, so the agent is asked before the ticket is drawn.
 */
async function observationFor(
  opts: PlayLiveOptions,
): Promise<{ observation: ObservationKind[]; agent: Agent | null; gameId: string | null; pixels?: Agent['pixels'] }> {
  const games = loadCatalog().games;
  const gameId =
    opts.gameId ?? (opts.suite === ALL_GAMES_SUITE ? games[0] : games.find((g) => g.manifest.suites.includes(opts.suite ?? '')))?.manifest.id ?? null;
  if (!gameId) return { observation: opts.observation, agent: null, gameId };
  const agent = await createAgent(opts.agent, gameId, opts.agentOptions);
  return { observation: [...new Set([...opts.observation, ...(agent.observation ?? [])])], agent, gameId, pixels: agent.pixels };
}

export async function playLive(auth: ServerAuth, opts: PlayLiveOptions): Promise<AcceptedRun> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${auth.token}` };
  const refused = (e: unknown) =>
    e instanceof ApiCallError ? new UsageError(`the live ticket was refused (${e.status ? `${e.status} ` : ''}${e.code}): ${e.message}`) : e;
  const post = async (url: string, body: unknown) => {
    try {
      return (await callApi<unknown>(url, { method: 'POST', headers, body: JSON.stringify(body) })).body;
    } catch (e) {
      throw refused(e);
    }
  };
  // The worker that plays the ticket, called directly; through the site's routes (which forward) if it cannot be reached from here.
  let endpoint: string | undefined;
  const live$ = async (call: 'reset' | 'step' | 'claims', siteUrl: string, body: unknown) => {
    if (endpoint) {
      try {
        return (await callApi<unknown>(`${endpoint}/${call}`, { method: 'POST', headers, body: JSON.stringify(body) })).body;
      } catch (e) {
        // Unreachable: the call never arrived, so it is sent again through the site.
        if (!(e instanceof ApiCallError) || e.code !== 'UNREACHABLE') throw refused(e);
        console.error(`The live ticket's worker (${endpoint}) cannot be reached from here: playing through ${auth.server}`);
        endpoint = undefined;
      }
    }
    return post(new URL(siteUrl, auth.server).href, body);
  };
  const probe = await observationFor(opts);
  const ask = {
    ...(opts.gameId ? { game: opts.gameId } : { suite: opts.suite }),
    ...(opts.seedsPerGame ? { seedsPerGame: opts.seedsPerGame } : {}),
    mode: 'live',
    agent: opts.name,
    observation: probe.observation,
    // A pixel policy reads frames of the size and colour it was trained on.
    ...(probe.pixels ? { pixels: probe.pixels } : {}),
    ...(opts.stepDeadlineMs ? { stepDeadlineMs: opts.stepDeadlineMs } : {}),
  };
  const ticket = TicketJson.parse(((await post(`${auth.server}/api/tickets`, ask)) as { ticket: unknown }).ticket);
  const live = ticket.live!;
  endpoint = live.endpoint;
  console.error(`Live ticket ${ticket.id} from ${auth.server}: ${live.episodes.length} episodes, played on the server's seeds as "${opts.name}"`);
  if (opts.claims) {
    if (!live.claimsUrl) throw new UsageError(`${auth.server} takes no claims on live tickets (an older server): it cannot store how the policy was trained`);
    await live$('claims', live.claimsUrl, opts.claims);
  }
  const agents = new Map<string, Agent>(probe.agent && probe.gameId ? [[probe.gameId, probe.agent]] : []);
  let closing: LiveInfo['ticket'];
  for (const episode of live.episodes) {
    let agent = agents.get(episode.game);
    if (!agent) agents.set(episode.game, (agent = await createAgent(opts.agent, episode.game, opts.agentOptions)));
    let r = (await live$('reset', live.resetUrl, {})) as LiveAnswer;
    // The agent's own randomness gets a seed of its own: the episode's is the server's secret.
    await agent.reset({ manifest: getGame(episode.game).manifest, seed: episode.position });
    let steps = 0;
    for (;;) {
      const observation = observationOf(r.observation);
      const action = await agent.act({
        observation,
        state: r.info.state ?? observation.state!,
        step: steps,
        ...(r.info.actionMask ? { actionMask: r.info.actionMask } : {}),
      });
      r = (await live$('step', live.stepUrl, { action })) as LiveAnswer;
      steps++;
      if (r.terminated || r.truncated) break;
    }
    console.log(`${episode.game} episode ${episode.position + 1}/${live.episodes.length}: score ${r.info.score} in ${steps} steps`);
    closing = r.info.ticket;
  }
  if (!closing?.submission) throw new UsageError(`live ticket ${ticket.id} closed with nothing to submit`);
  return followRun(auth.server, SubmissionStatus.parse(closing.submission), opts.waitTimeoutS);
}
