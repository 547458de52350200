import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CatalogEntry } from '../catalog-schema';
import { PUBLIC_DIR, RUNTIME_BUNDLE_PATH } from '../paths';
import type { RuntimeConfig } from '../runtime/protocol';

/**
 * The in-page runtime's config for one instance of `game`, seed aside: the one reading used by a
 * single-instance page (gym/env/env.ts) and by every instance of a batch page
 * (gym/batch/host-page.ts), so that both play the same episode from the same seed.
 */
export function runtimeConfig(game: CatalogEntry, opts: { paint: boolean }): Omit<RuntimeConfig, 'seed'> {
  const m = game.manifest;
  return {
    canvas: { width: m.canvas.width, height: m.canvas.height, selector: m.canvas.selector },
    paint: opts.paint,
    // Our canvas games draw everything on their canvas; third-party pages may not.
    pointerTarget: m.renderer !== 'dom' && !game.external ? 'game-element' : 'hit-test',
    // The gym's browsers rasterise canvases in software (gym/browser/launch.ts: --disable-gpu).
    rasterEachStep: true,
  };
}

const bundles = new Map<string, string>();

/** The runtime bundle and the game's verifier, as run before any game script (read once per verifier). */
export function runtimeAndVerifier(game: CatalogEntry): string {
  let text = bundles.get(game.verifierPath);
  if (text === undefined) {
    text = `${readFileSync(RUNTIME_BUNDLE_PATH, 'utf8')}\n;${readFileSync(path.join(PUBLIC_DIR, game.verifierPath), 'utf8')}`;
    bundles.set(game.verifierPath, text);
  }
  return text;
}

/** A single-instance page's init script for one episode: the config with its seed, then runtime and verifier. */
export function episodeInitScript(game: CatalogEntry, seed: number, opts: { paint: boolean }): string {
  const config: RuntimeConfig = { seed, ...runtimeConfig(game, opts) };
  return `globalThis.__ARCADE_CONFIG__ = ${JSON.stringify(config)};\n${runtimeAndVerifier(game)}`;
}
