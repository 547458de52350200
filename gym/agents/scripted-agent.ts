import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ArcadeGymError } from '../errors';
import { GAMES_DIR } from '../paths';
import { externalScriptedAgentFile } from '../external/paths';
import { SeededRandom } from '../random/seeded-random';
import type { GameManifest } from '../schema/manifest';
import type { Agent, AgentContext, ScriptedPolicy } from './agent';

/** The file of a game's scripted agent, or null when it has none (a third-party game may not). */
export function scriptedAgentFile(gameId: string): string | null {
  const own = path.join(GAMES_DIR, gameId, 'scripted-agent.ts');
  // Third-party games keep theirs in games-external/<id>/ (see gym/external/paths.ts).
  return existsSync(own) ? own : externalScriptedAgentFile(gameId);
}

/** Loads games/<id>/scripted-agent.ts: each game's own hand-written baseline policy. */
export async function loadScriptedPolicy(gameId: string): Promise<ScriptedPolicy> {
  const file = scriptedAgentFile(gameId);
  if (!file)
    throw new ArcadeGymError(
      'UNKNOWN_GAME',
      `Game ${gameId} has no scripted agent (games/${gameId}/scripted-agent.ts or games-external/${gameId}/scripted-agent.ts|js)`,
    );
  const mod = (await import(pathToFileURL(file).href)) as { default: ScriptedPolicy };
  return mod.default;
}

export async function createScriptedAgent(gameId: string): Promise<Agent> {
  const policy = await loadScriptedPolicy(gameId);
  let manifest: GameManifest | null = null;
  let rng = new SeededRandom(0);
  return {
    name: 'scripted',
    reset(ctx: AgentContext) {
      manifest = ctx.manifest;
      rng = new SeededRandom(ctx.seed ^ 0x5c1);
    },
    act(turn) {
      return policy(turn.state, { step: turn.step, manifest: manifest!, random: () => rng.next() });
    },
  };
}
