import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GAMES_DIR, ROOT } from '../paths';
import { GameManifest } from '../schema/manifest';

/**
 * The Python package's list of the project's own games (clients/python/arcade_gym/games.json):
 * what `import arcade_gym` registers with gymnasium. Written by `npm run build:python-games`;
 * a test fails when it no longer matches games/. Third-party games a server offers are
 * registered at run time (arcade_gym.register_server_games).
 */
export const PYTHON_GAMES_PATH = path.join(ROOT, 'clients', 'python', 'arcade_gym', 'games.json');

export interface PythonGame {
  id: string;
  title: string;
  version: string;
  /** The official budget: gymnasium's max_episode_steps. */
  stepBudget: number;
}

export function pythonGameList(gamesDir = GAMES_DIR): { games: PythonGame[] } {
  const ids = readdirSync(gamesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(gamesDir, d.name, 'manifest.json')))
    .map((d) => d.name)
    .sort();
  return {
    games: ids.map((id) => {
      const m = GameManifest.parse(JSON.parse(readFileSync(path.join(gamesDir, id, 'manifest.json'), 'utf8')));
      return { id: m.id, title: m.title, version: m.version, stepBudget: m.stepBudget };
    }),
  };
}

export function pythonGamesJson(): string {
  return `${JSON.stringify(pythonGameList(), null, 2)}\n`;
}
