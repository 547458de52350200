import { ArcadeGymError } from '../errors';
import type { Agent } from './agent';
import { createRandomAgent } from './random-agent';
import { createScriptedAgent, scriptedAgentFile } from './scripted-agent';
import { createPpoAgent } from './ppo-agent';
import { createOpenAiAgent } from './openai-agent';

export interface AgentOptions {
  /** Extra settings for agents that need them (a checkpoint, a model endpoint, …). */
  [key: string]: unknown;
}

type AgentFactory = (gameId: string, opts: AgentOptions) => Promise<Agent>;

/** Agents the CLI and the HTTP API know by name. Add new kinds here. */
const FACTORIES: Record<string, AgentFactory> = {
  random: async (_gameId, opts) => createRandomAgent(opts),
  scripted: async (gameId) => createScriptedAgent(gameId),
  /** A vision-language model behind an OpenAI-compatible endpoint (gym/agents/openai-agent.ts). */
  openai: async (_gameId, opts) => createOpenAiAgent(opts),
  /** A policy trained with `arcade-gym train` (gym/agents/ppo-agent.ts). */
  ppo: async (_gameId, opts) => createPpoAgent(opts),
};

export function registerAgent(name: string, factory: AgentFactory): void {
  FACTORIES[name] = factory;
}

export function agentNames(): string[] {
  return Object.keys(FACTORIES);
}

export async function createAgent(name: string, gameId: string, opts: AgentOptions = {}): Promise<Agent> {
  const factory = FACTORIES[name];
  if (!factory) throw new ArcadeGymError('INVALID_OPTIONS', `Unknown agent "${name}". Known agents: ${agentNames().join(', ')}`);
  return factory(gameId, opts);
}

/**
 * The baselines a comparison on `gameId` can have, checked before any work is spent: an unknown
 * agent name is an error; `scripted` on a game without a scripted agent (a third-party game may
 * not ship one) is left out, and `note` says so.
 */
export function availableBaselines(gameId: string, wanted: readonly string[]): { baselines: string[]; note: string | null } {
  const unknown = wanted.filter((b) => !FACTORIES[b]);
  if (unknown.length)
    throw new ArcadeGymError('INVALID_OPTIONS', `Unknown baseline agent ${unknown.map((u) => `"${u}"`).join(', ')}. Known agents: ${agentNames().join(', ')}`);
  if (!wanted.includes('scripted') || scriptedAgentFile(gameId)) return { baselines: [...wanted], note: null };
  const baselines = wanted.filter((b) => b !== 'scripted');
  return { baselines, note: `${gameId} has no scripted agent: comparing against ${baselines.length ? baselines.join(', ') : 'no baseline'} only` };
}
