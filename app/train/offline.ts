import type { CatalogEntry } from '../../gym/schema';

/** public/train-sw.js: keeps the game's files so that training goes on offline once the page has loaded. */
const WORKER = '/train-sw.js';

/**
 * Registers the service worker and, once it controls the page, loads the game page once in a
 * hidden, paused frame so that its files (page, game script, runtime, verifier) are kept, and
 * fetches the game's decisions script, which a game-specific preset's run loads only when it
 * starts (by then the network may be gone). Resolves true when the page can train offline, false where service workers are unavailable.
 */
export async function prepareOffline(game: CatalogEntry | null): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false;
  await navigator.serviceWorker.register(WORKER, { scope: '/' });
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
  }
  if (!game) return true;
  const m = game.manifest;
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.width = String(m.canvas.width);
  frame.height = String(m.canvas.height);
  await new Promise<void>((resolve) => {
    frame.addEventListener('load', () => resolve(), { once: true });
    // With a seed the game starts paused in virtual time: it costs nothing while it is kept.
    frame.src = `${game.basePath}${m.entry}?arcade-seed=0&arcade-width=${m.canvas.width}&arcade-height=${m.canvas.height}`;
    document.body.appendChild(frame);
  });
  frame.remove();
  if (game.decisions) {
    const response = await fetch(game.decisions.script);
    if (!response.ok) throw new Error(`${game.decisions.script}: ${response.status} (run npm run build:games)`);
  }
  return true;
}
