import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../paths';

/**
 * The registry of third-party games: games-external/<id>/ holds manifest.json, a verifier
 * (verifier.ts or verifier.js), an optional scripted-agent.ts|js, source.json (where the game
 * came from, with checksums) and, for games copied from a folder, the game's files under game/.
 * ARCADE_EXTERNAL_DIR points elsewhere (tests register games in a scratch folder).
 */
export const EXTERNAL_GAMES_DIR = process.env.ARCADE_EXTERNAL_DIR ? path.resolve(process.env.ARCADE_EXTERNAL_DIR) : path.join(ROOT, 'games-external');

export const SOURCE_FILE = 'source.json';
export const MANIFEST_FILE = 'manifest.json';
/** The game's own files, copied verbatim. */
export const GAME_FILES_DIR = 'game';
export const VERIFIER_NAMES = ['verifier.ts', 'verifier.js'] as const;
export const SCRIPTED_AGENT_NAMES = ['scripted-agent.ts', 'scripted-agent.js'] as const;

export const externalGameDir = (id: string) => path.join(EXTERNAL_GAMES_DIR, id);

/** The first of `names` that exists in the game's registry folder. */
export function findInGameDir(id: string, names: readonly string[]): string | null {
  for (const name of names) {
    const file = path.join(externalGameDir(id), name);
    if (existsSync(file)) return file;
  }
  return null;
}

export const externalVerifierFile = (id: string) => findInGameDir(id, VERIFIER_NAMES);
export const externalScriptedAgentFile = (id: string) => findInGameDir(id, SCRIPTED_AGENT_NAMES);
