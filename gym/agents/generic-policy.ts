import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ArcadeGymError } from '../errors';
import { GAMES_DIR } from '../paths';
import { findInGameDir } from '../external/paths';
import type { Agent } from './agent';
import { createPpoAgent } from './ppo-agent';

/** The built-in baseline played by the generic agent's trained policies (gym/ppo/generic-agent.ts). */
export const GENERIC_POLICY_AGENT = 'ppo-generic';
/** A game's generic policy: the generic agent trained on that game alone, nothing else of the game's. */
export const GENERIC_POLICY_FILE = 'ppo-generic.agckpt';

/** Beside the checkpoint: how it was trained, written by scripts/save-generic-policies.ts. */
export const GENERIC_POLICY_INFO_FILE = 'ppo-generic.json';

/** How a committed generic policy was trained: what a run's settings.training claims, and where it came from. */
export const GenericPolicyInfo = z.strictObject({
  algorithm: z.string().min(1),
  /** The tensor backend it trained on. */
  backend: z.string().min(1),
  totalTimesteps: z.number().int().positive(),
  /** sha256 of the checkpoint file beside it: a policy and its description cannot drift apart. */
  checkpointSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The run's config.json: every resolved setting. */
  config: z.record(z.string(), z.unknown()),
  /** Its learning curve, one point per update (a run's learningCurve: the leaderboard validates it). */
  learningCurve: z.array(z.record(z.string(), z.number())).max(1000),
  /** The commit of the code that trained it, and the command. */
  commit: z.string().min(1),
  command: z.string().min(1),
});
export type GenericPolicyInfo = z.infer<typeof GenericPolicyInfo>;

/** The committed policy checkpoint of the generic agent for a game, or null when none was trained. */
export function genericPolicyFile(gameId: string): string | null {
  const own = path.join(GAMES_DIR, gameId, GENERIC_POLICY_FILE);
  return existsSync(own) ? own : findInGameDir(gameId, [GENERIC_POLICY_FILE]);
}

/**
 * The generic agent's policy for `gameId`, evaluated in its own evaluation mode (sampled: the
 * generic config names it), on the CPU backend so every machine plays it the same.
 */
export async function createGenericPolicyAgent(gameId: string): Promise<Agent> {
  const checkpoint = genericPolicyFile(gameId);
  if (!checkpoint)
    throw new ArcadeGymError('INVALID_OPTIONS', `Game ${gameId} has no generic policy (games/${gameId}/${GENERIC_POLICY_FILE}): see gym/ppo/README.md`);
  const { GENERIC_EVALUATION } = await import('../ppo/generic-agent');
  return { ...(await createPpoAgent({ checkpoint, mode: GENERIC_EVALUATION.mode, backend: 'cpu' })), name: GENERIC_POLICY_AGENT };
}

/** How a built-in agent was trained, as a run submits it: settings.training and the learning curve. */
export interface TrainedAgent {
  training: { algorithm: string; backend: string; totalTimesteps: number; checkpointSha256: string; config: Record<string, unknown>; gameSpecific?: boolean };
  learningCurve: Record<string, number>[];
}

/**
 * What the leaderboard shows of how the game's generic policy was trained, read from the
 * description beside the checkpoint and checked against it.
 */
export async function genericPolicyTraining(gameId: string): Promise<TrainedAgent> {
  const checkpoint = genericPolicyFile(gameId);
  if (!checkpoint) throw new ArcadeGymError('INVALID_OPTIONS', `Game ${gameId} has no generic policy (games/${gameId}/${GENERIC_POLICY_FILE})`);
  return trainedPolicy(checkpoint);
}

/** How the policy in `checkpoint` was trained, from the ppo-generic.json beside it. */
export async function trainedPolicy(checkpoint: string): Promise<TrainedAgent> {
  const infoFile = path.join(path.dirname(checkpoint), GENERIC_POLICY_INFO_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(infoFile, 'utf8'));
  } catch (e) {
    throw new ArcadeGymError(
      'INVALID_OPTIONS',
      `${infoFile}: ${e instanceof Error ? e.message : e} (every ${GENERIC_POLICY_FILE} needs its ${GENERIC_POLICY_INFO_FILE})`,
    );
  }
  const parsed = GenericPolicyInfo.safeParse(raw);
  if (!parsed.success)
    throw new ArcadeGymError('INVALID_OPTIONS', `${infoFile} is invalid: ${parsed.error.issues[0].message} at ${parsed.error.issues[0].path.join('.')}`);
  const sha = createHash('sha256')
    .update(await readFile(checkpoint))
    .digest('hex');
  if (sha !== parsed.data.checkpointSha256)
    throw new ArcadeGymError(
      'INVALID_OPTIONS',
      `${infoFile} describes another checkpoint (sha256 ${parsed.data.checkpointSha256.slice(0, 12)}…, the file is ${sha.slice(0, 12)}…)`,
    );
  const { algorithm, backend, totalTimesteps, config, learningCurve } = parsed.data;
  return { training: { algorithm, backend, totalTimesteps, checkpointSha256: sha, config, gameSpecific: false }, learningCurve };
}
