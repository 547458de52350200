import { existsSync, readFileSync } from 'node:fs';
import { Catalog, type CatalogEntry } from './catalog-schema';
import { CATALOG_PATH } from './paths';
import { ArcadeGymError } from './errors';

let cached: Catalog | null = null;

/** The built games (public/games/catalog.json). `npm run build:games` writes it. */
export function loadCatalog(): Catalog {
  if (cached) return cached;
  if (!existsSync(CATALOG_PATH)) {
    throw new ArcadeGymError('GAME_NOT_BUILT', `No built games found at ${CATALOG_PATH}. Run \`npm run build:games\` first.`);
  }
  cached = Catalog.parse(JSON.parse(readFileSync(CATALOG_PATH, 'utf8')));
  return cached;
}

export function getGame(id: string): CatalogEntry {
  const games = loadCatalog().games;
  const entry = games.find((g) => g.manifest.id === id);
  if (!entry) {
    throw new ArcadeGymError('UNKNOWN_GAME', `Unknown game "${id}". Known games: ${games.map((g) => g.manifest.id).join(', ')}`);
  }
  return entry;
}

export function gamesInSuite(suite: string): CatalogEntry[] {
  const games = loadCatalog().games.filter((g) => g.manifest.suites.includes(suite));
  if (games.length === 0) throw new ArcadeGymError('UNKNOWN_GAME', `No games in suite "${suite}"`);
  return games;
}
