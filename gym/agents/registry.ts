import { ArcadeGymError } from '../errors';
import type { Agent } from './agent';
import { createRandomAgent } from './random-agent';
import { createScriptedAgent, scriptedAgentFile } from './scripted-agent';
import { createPpoAgent } from './ppo-agent';
import { createOpenAiAgent } from './openai-agent';
import { createGenericPolicyAgent, GENERIC_POLICY_AGENT, genericPolicyFile, genericPolicyTraining, type TrainedAgent } from './generic-policy';

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
  /** The generic agent's committed policy for the game (gym/agents/generic-policy.ts). */
  [GENERIC_POLICY_AGENT]: async (gameId) => createGenericPolicyAgent(gameId),
};

/** What an agent needs of a game before it can play it: a file the game may not ship. */
const NEEDS: Record<string, { has: (gameId: string) => boolean; lacks: string }> = {
  scripted: { has: (id) => scriptedAgentFile(id) !== null, lacks: 'no scripted agent' },
  [GENERIC_POLICY_AGENT]: { has: (id) => genericPolicyFile(id) !== null, lacks: 'no generic policy' },
};

/** How a built-in agent was trained, as a run submits it; undefined for one that was not (random, scripted). */
export async function agentTraining(agent: string, gameId: string): Promise<TrainedAgent | undefined> {
  return agent === GENERIC_POLICY_AGENT ? genericPolicyTraining(gameId) : undefined;
}

/** What `gameId` lacks for `agent` to play it ("no scripted agent", "no generic policy"), or null when it can. */
export function gameLacks(agent: string, gameId: string): string | null {
  const need = NEEDS[agent];
  return need && !need.has(gameId) ? need.lacks : null;
}

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
 * agent name is an error; an agent the game lacks a file for (`scripted` without a scripted agent,
 * which a third-party game may not ship; `ppo-generic` without a trained policy) is left out, and
 * `note` says so.
 */
export function availableBaselines(gameId: string, wanted: readonly string[]): { baselines: string[]; note: string | null } {
  const unknown = wanted.filter((b) => !FACTORIES[b]);
  if (unknown.length)
    throw new ArcadeGymError('INVALID_OPTIONS', `Unknown baseline agent ${unknown.map((u) => `"${u}"`).join(', ')}. Known agents: ${agentNames().join(', ')}`);
  const lacks = wanted.map((b) => gameLacks(b, gameId)).filter((l) => l !== null);
  if (!lacks.length) return { baselines: [...wanted], note: null };
  const baselines = wanted.filter((b) => gameLacks(b, gameId) === null);
  return { baselines, note: `${gameId} has ${lacks.join(' and ')}: comparing against ${baselines.length ? baselines.join(', ') : 'no baseline'} only` };
}
