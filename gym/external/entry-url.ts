import { GAME_ORIGIN } from '../browser/serve-files';
import type { CatalogEntry } from '../catalog-schema';

/** Where the env opens a game: its own URL for games served from elsewhere, else the gym's origin. */
export function entryUrl(game: CatalogEntry): string {
  return game.url ?? `${GAME_ORIGIN}${game.basePath}${game.manifest.entry}`;
}
