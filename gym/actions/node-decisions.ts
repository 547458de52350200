import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ArcadeGymError } from '../errors';
import { GAMES_DIR, ROOT } from '../paths';
import { type GameDecisions, offeredKinds } from './game-decisions';

/** The file a game's decisions live in, by convention: beside its manifest, rules and scripted agent. */
export const DECISIONS_FILE = 'decisions.ts';

/** games/<id>/decisions.ts, or null when the game has none. */
export function gameDecisionsFile(gameId: string): string | null {
  const file = path.join(GAMES_DIR, gameId, DECISIONS_FILE);
  return existsSync(file) ? file : null;
}

/** Imports games/<id>/decisions.ts by path (Node), checking what it exports. */
export async function importGameDecisions(gameId: string): Promise<GameDecisions> {
  const file = gameDecisionsFile(gameId);
  if (!file) throw new ArcadeGymError('INVALID_OPTIONS', `${gameId} has no decisions module (games/${gameId}/${DECISIONS_FILE})`);
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  offeredKinds(mod.default, path.relative(ROOT, file));
  return mod.default as GameDecisions;
}
