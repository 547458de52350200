import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../gym/paths';

/**
 * Where the SQL migrations are. Resolved from the checkout (gym/paths' ROOT) and, when code
 * runs bundled by Next.js where module URLs may not point into the checkout, from the
 * working directory `next start` runs in.
 */
export function migrationsDir(): string {
  if (process.env.ARCADE_MIGRATIONS_DIR) return path.resolve(/*turbopackIgnore: true*/ process.env.ARCADE_MIGRATIONS_DIR);
  for (const base of [ROOT, process.cwd()]) {
    const dir = path.join(base, 'drizzle', 'migrations');
    if (existsSync(path.join(dir, 'meta', '_journal.json'))) return dir;
  }
  throw new Error(`No drizzle/migrations folder found under ${ROOT} or ${process.cwd()}`);
}

/** The embedded database's home: ARCADE_DATA_DIR, or ./.data in the working directory. */
export function dataDir(): string {
  // turbopackIgnore: a runtime folder, not a file of the build (without it the whole project is traced).
  return path.resolve(/*turbopackIgnore: true*/ process.env.ARCADE_DATA_DIR ?? '.data');
}

export function pgliteDir(base = dataDir()): string {
  return path.join(base, 'pglite');
}
