/**
 * `npm run build:games`: builds every game, verifier and the runtime into public/ and writes
 * the catalog. The build itself is the library's (gym/build/), shared with `arcade-gym add-game`
 * and the test setup.
 */
import { buildGames } from '../gym/build';

export { buildGames };

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('build-games.ts')) {
  const started = Date.now();
  buildGames().then(
    (c) => console.log(`built ${c.games.length} games (${c.games.map((g) => g.manifest.id).join(', ')}) in ${Date.now() - started} ms`),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
