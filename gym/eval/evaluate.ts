import type { Browser } from 'playwright-core';
import { makeEnv } from '../env/env';
import type { ObservationKind } from '../env/options';
import { createAgent, type AgentOptions } from '../agents/registry';
import type { EpisodeRecord } from '../schema/records';
import type { CatalogEntry } from '../catalog-schema';
import { runEpisode } from './run-episode';
import { humanNormalised, mean, std } from './stats';

export interface GameEvaluation {
  gameId: string;
  agent: string;
  episodes: EpisodeRecord[];
  meanScore: number;
  stdScore: number;
  meanLength: number;
  /** 100 × mean score ÷ the human reference. */
  normalised: number;
  /** The agent's own counters, if it keeps any (model calls, parse errors, …). */
  agentStats?: Record<string, number>;
}

export interface EvaluateOptions {
  game: CatalogEntry;
  agent: string;
  agentOptions?: AgentOptions;
  seeds: number[];
  observation?: ObservationKind[];
  maxSteps?: number;
  browser?: Browser;
  onEpisode?: (record: EpisodeRecord) => void | Promise<void>;
}

/** Runs one agent on one game for each seed, one episode per seed. */
export async function evaluateGame(opts: EvaluateOptions): Promise<GameEvaluation> {
  const id = opts.game.manifest.id;
  const agent = await createAgent(opts.agent, id, opts.agentOptions);
  // The env also gives what the agent reads (screenshots for a vision model).
  const observation = [...new Set([...(opts.observation ?? ['state', 'vector']), ...(agent.observation ?? [])])];
  const env = makeEnv(
    { game: id, seed: opts.seeds[0] ?? 0, observation, maxSteps: opts.maxSteps, ...(agent.pixels ? { pixels: agent.pixels } : {}) },
    opts.browser,
  );
  const episodes: EpisodeRecord[] = [];
  try {
    for (const [i, seed] of opts.seeds.entries()) {
      // The next seed loads in a spare tab while this episode plays, so its reset is a swap (gym/env README, spares).
      const next = opts.seeds[i + 1];
      const record = await runEpisode(env, agent, seed, next === undefined ? undefined : () => env.prepareNextEpisode(next));
      episodes.push(record);
      await opts.onEpisode?.(record);
    }
  } finally {
    await env.close();
  }
  const scores = episodes.map((e) => e.totals.score);
  return {
    gameId: id,
    agent: opts.agent,
    episodes,
    meanScore: mean(scores),
    stdScore: std(scores),
    meanLength: mean(episodes.map((e) => e.totals.length)),
    normalised: humanNormalised(mean(scores), opts.game.manifest.humanReference.score),
    ...(agent.stats ? { agentStats: agent.stats() } : {}),
  };
}
