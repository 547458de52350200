import { ArcadeGymError } from '../errors';
import type { GameDecisions, GameWithDecisions } from './game-decisions';

/**
 * Where a page's decisions scripts register their module (public/games/<id>/decisions.js, built
 * by gym/build/build-games.ts): globalThis[DECISIONS_GLOBAL][gameId].
 */
export const DECISIONS_GLOBAL = '__arcadeGameDecisions';

type Registry = Record<string, GameDecisions | undefined>;

const loaded = new Map<string, Promise<GameDecisions>>();

/** Loads the script once in this page; it registers the game's module under DECISIONS_GLOBAL. */
function loadScript(id: string, src: string): Promise<GameDecisions> {
  const registry = () => (globalThis as unknown as Record<string, Registry | undefined>)[DECISIONS_GLOBAL];
  const ready = registry()?.[id];
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => {
      const d = registry()?.[id];
      if (d) resolve(d);
      else reject(new Error(`${src} did not register ${id}'s decisions`));
    };
    script.onerror = () => reject(new Error(`${src} could not be loaded (run npm run build:games)`));
    document.head.appendChild(script);
  });
}

/**
 * A game's decisions module (games/<id>/decisions.ts), found through its catalog entry: in a page
 * the bundle the entry names (a script, loaded once), in Node the source file, imported by path
 * as scripted agents are. Loaded once per game.
 */
export function loadGameDecisions(game: GameWithDecisions): Promise<GameDecisions> {
  const id = game.manifest.id;
  const d = game.decisions;
  if (!d) return Promise.reject(new ArcadeGymError('INVALID_OPTIONS', `${id} has no decisions module in the catalog (games/${id}/decisions.ts)`));
  let p = loaded.get(id);
  if (!p) {
    p = typeof document !== 'undefined' ? loadScript(id, d.script) : import('./node-decisions').then((m) => m.importGameDecisions(id));
    loaded.set(id, p);
    p.catch(() => loaded.delete(id));
  }
  return p;
}
