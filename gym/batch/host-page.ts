import type { CatalogEntry } from '../catalog-schema';
import { GAME_ORIGIN } from '../browser/serve-files';
import { runtimeAndVerifier, runtimeConfig } from '../env/init-script';

/**
 * The page that holds a batch: one same-origin iframe per game instance, each a full game
 * document with its own runtime (virtual clock, seeded randomness, storage). Every frame is
 * exactly the game's viewport and they all sit at the page's origin, stacked: a frame's
 * layout, hit tests and pixels are those of a single-instance page of the same size.
 */
export const BATCH_HOST_PATH = '/__arcade/batch-host.html';
export const BATCH_HOST_URL = `${GAME_ORIGIN}${BATCH_HOST_PATH}`;

/** The attribute carrying an instance's seed: its document reads it before any game script. */
const SEED_ATTRIBUTE = 'data-arcade-seed';

/**
 * The host's dispatcher (plain JS: it is served as is). `window.__arcadeBatch` steps, runs and
 * hashes instances by slot (and hands out an instance's runtime: `runtime(slot)`); one instance's exception is its own result and never stops the
 * others. `current` names the instance being run, so a hung call can be traced to it.
 */
const HOST_SCRIPT = String.raw`
(() => {
  const frames = new Map();
  const batch = { current: -1 };
  const runtimeOf = (slot) => {
    const frame = frames.get(slot);
    const api = frame && frame.contentWindow && frame.contentWindow.__arcade;
    if (!api) throw new Error('instance ' + slot + ' has no arcade runtime (not loaded, or the game replaced it)');
    return api;
  };
  // No finally: a script stopped by the debugger runs none, and current must still name the instance.
  const each = (items, fn) => {
    const out = items.map(([slot, arg]) => {
      batch.current = slot;
      try {
        return { ok: fn(runtimeOf(slot), arg) };
      } catch (e) {
        return { error: e && e.message !== undefined ? (e.name || 'Error') + ': ' + String(e.message).split('\n')[0] : String(e) };
      }
    });
    batch.current = -1;
    return out;
  };
  // An instance's runtime by slot, for code that steps instances inside the page (bench:gym's in-page loops).
  batch.runtime = runtimeOf;
  batch.step = (items) => each(items, (api, req) => api.step(req));
  batch.run = (items) => each(items, (api, reqs) => reqs.map((req) => api.step(req)));
  batch.frameHash = (slots) => each(slots.map((s) => [s, null]), (api) => api.frameHash());
  batch.remove = (slots) => {
    for (const slot of slots) {
      const frame = frames.get(slot);
      if (frame) frame.remove();
      frames.delete(slot);
    }
  };
  // A fresh document per episode: the old frame (and all its state) is dropped, a new one loads in its place.
  batch.load = (items) => Promise.all(items.map(({ slot, url, seed, width, height }) => new Promise((resolve) => {
    const old = frames.get(slot);
    if (old) old.remove();
    const frame = document.createElement('iframe');
    frame.setAttribute('${SEED_ATTRIBUTE}', String(seed));
    frame.width = String(width);
    frame.height = String(height);
    frame.style.width = width + 'px';
    frame.style.height = height + 'px';
    frame.addEventListener('load', () => {
      const w = frame.contentWindow;
      resolve(w && typeof w.__arcade === 'object' ? { ok: true } : { error: 'the arcade runtime did not start in instance ' + slot });
    }, { once: true });
    frame.src = url;
    frames.set(slot, frame);
    document.body.appendChild(frame);
  })));
  window.__arcadeBatch = batch;
})();
`;

export const BATCH_HOST_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>arcade batch</title>
<style>html,body{margin:0;padding:0;overflow:hidden}iframe{position:absolute;left:0;top:0;border:0;margin:0;padding:0;display:block}</style>
</head><body><script>${HOST_SCRIPT}</script></body></html>`;

/**
 * The init script of a batch page. It runs in every frame (CDP's scripts to evaluate on a new
 * document do, as Playwright's init scripts do), and starts the runtime and the verifier only in
 * an instance frame's game document, with the seed its frame element carries: not in the host,
 * nor in a frame's initial about:blank (whose window the game document may inherit).
 */
export function batchInitScript(game: CatalogEntry): string {
  // The same config as a single-instance page's; nobody watches a batch, so it is never painted.
  const base = JSON.stringify(runtimeConfig(game, { paint: false }));
  return `if ((() => {
  let el = null;
  try { el = window.frameElement; } catch { return false; }
  if (!el || !el.hasAttribute('${SEED_ATTRIBUTE}') || !/^https?:$/.test(location.protocol)) return false;
  globalThis.__ARCADE_CONFIG__ = Object.assign(${base}, { seed: Number(el.getAttribute('${SEED_ATTRIBUTE}')) >>> 0 });
  return true;
})()) {
${runtimeAndVerifier(game)}
}`;
}
