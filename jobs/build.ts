/**
 * Which build a job needs and which build a worker has. A job names, per game, the game version
 * and verifier checksum its records must come from; a worker compares them with its own built
 * catalog and refuses a job it cannot play as asked (its records would differ).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { loadCatalog } from '../gym/catalog';
import type { CatalogEntry } from '../gym/schema';

export const GameBuild = z.strictObject({
  gameId: z.string().min(1),
  gameVersion: z.string().min(1),
  verifierChecksum: z.string().regex(/^[0-9a-f]{64}$/, 'a verifier checksum is 64 hex digits'),
});
export type GameBuild = z.infer<typeof GameBuild>;

export function buildOf(game: CatalogEntry): GameBuild {
  return { gameId: game.manifest.id, gameVersion: game.manifest.version, verifierChecksum: game.verifierChecksum };
}

/** A short fingerprint of every built game (shown for workers, so a stale machine stands out). */
export function workerBuildId(): string {
  const games = loadCatalog()
    .games.map((g) => `${g.manifest.id}@${g.manifest.version}:${g.verifierChecksum}`)
    .sort();
  return createHash('sha256').update(games.join('\n')).digest('hex').slice(0, 12);
}

/** Why this machine cannot play the builds a job names, or null when it can. */
export function buildMismatch(needed: readonly GameBuild[]): string | null {
  const games = new Map(loadCatalog().games.map((g) => [g.manifest.id, g]));
  for (const want of needed) {
    const have = games.get(want.gameId);
    if (!have) return `${want.gameId} is not built here`;
    if (have.manifest.version !== want.gameVersion || have.verifierChecksum !== want.verifierChecksum) {
      return (
        `${want.gameId} here is ${have.manifest.version} (verifier ${have.verifierChecksum.slice(0, 12)}…), ` +
        `the job needs ${want.gameVersion} (verifier ${want.verifierChecksum.slice(0, 12)}…)`
      );
    }
  }
  return null;
}
