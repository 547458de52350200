import type { GameManifest } from '../../gym/schema';

/**
 * The preset's key names, checked against the keys a game's afterstate features were written
 * for (one feature row per key, in the preset's order): a manifest whose preset changed is an
 * error here, not rows that describe the wrong keys.
 */
export function expectPresetKeys<K extends string>(manifest: GameManifest, keys: readonly K[]): readonly K[] {
  const names = manifest.preset.map((p) => p.name);
  if (names.join() !== keys.join()) {
    throw new Error(`${manifest.id}'s afterstate features are for the preset keys ${keys.join(', ')}; its preset is ${names.join(', ')}`);
  }
  return keys;
}
