/**
 * Builds every game in games/<id>/ to static files under public/ (served by the Next.js app
 * and by the gym), bundles each verifier and the in-page runtime, and writes the catalog
 * with checksums. Output is deterministic: same sources, same bytes.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GameManifest } from '../gym/schema/manifest';
import { RUNTIME_VERSION } from '../gym/runtime/protocol';
import { BUILT_GAMES_DIR, CATALOG_PATH, GAMES_DIR, PUBLIC_DIR, ROOT, RUNTIME_BUNDLE_PATH, VERIFIERS_DIR } from '../gym/paths';
import type { Catalog, CatalogEntry } from '../gym/catalog-schema';
import type { Verifier } from '../verifiers/define';
import { buildExternalGames } from '../gym/external/build-external';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

async function bundle(entry: { file?: string; contents?: string }, outfile: string): Promise<string> {
  await build({
    ...(entry.file ? { entryPoints: [entry.file] } : { stdin: { contents: entry.contents!, resolveDir: ROOT, loader: 'ts' } }),
    outfile,
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    minify: true,
    logLevel: 'warning',
    charset: 'utf8',
  });
  return readFile(outfile, 'utf8');
}

function gameHtml(m: GameManifest): string {
  // The runtime and verifier come first: with ?arcade-seed= the page runs in virtual time,
  // without it the runtime does nothing and the game runs in real time like any web game.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no">
<title>${m.title}</title>
<script src="/runtime/arcade-runtime.js"></script>
<script src="/verifiers/${m.id}.js"></script>
<script src="game.js" defer></script>
</head>
<body></body>
</html>
`;
}

export async function buildGames(): Promise<Catalog> {
  // ARCADE_GAMES=a,b builds only those games (quicker while working on one game).
  const only = process.env.ARCADE_GAMES ? new Set(process.env.ARCADE_GAMES.split(',').map((s) => s.trim())) : null;
  const runtimeSource = await bundle({ file: path.join(ROOT, 'gym/runtime/index.ts') }, RUNTIME_BUNDLE_PATH);
  await rm(BUILT_GAMES_DIR, { recursive: true, force: true });
  await mkdir(path.join(PUBLIC_DIR, 'verifiers'), { recursive: true });

  const ids = (await readdir(GAMES_DIR, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && existsSync(path.join(GAMES_DIR, d.name, 'manifest.json')))
    .map((d) => d.name)
    .filter((id) => !only || only.has(id))
    .sort();

  const games: CatalogEntry[] = [];
  for (const id of ids) {
    const dir = path.join(GAMES_DIR, id);
    const parsed = GameManifest.safeParse(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')));
    if (!parsed.success) throw new Error(`games/${id}/manifest.json is invalid: ${parsed.error.message}`);
    const manifest = parsed.data;
    if (manifest.id !== id) throw new Error(`games/${id}/manifest.json has id "${manifest.id}"; it must match its folder`);

    const outDir = path.join(BUILT_GAMES_DIR, id);
    await mkdir(outDir, { recursive: true });
    const gameJs = await bundle({ file: path.join(dir, 'main.ts') }, path.join(outDir, 'game.js'));
    await writeFile(path.join(outDir, 'index.html'), gameHtml(manifest));
    if (existsSync(path.join(dir, 'assets'))) await cp(path.join(dir, 'assets'), path.join(outDir, 'assets'), { recursive: true });

    const verifierFile = path.join(VERIFIERS_DIR, `${id}.ts`);
    if (!existsSync(verifierFile)) throw new Error(`games/${id} has no verifier: expected verifiers/${id}.ts`);
    const verifierJs = await bundle(
      {
        contents: `import v from ${JSON.stringify(verifierFile)};
const g = globalThis;
if (g.__arcadeRegisterVerifier) g.__arcadeRegisterVerifier(v); else g.__arcadeVerifier = v;`,
      },
      path.join(PUBLIC_DIR, 'verifiers', `${id}.js`),
    );
    const verifier = (await import(verifierFile)).default as Verifier;
    if (verifier.gameId !== id) throw new Error(`verifiers/${id}.ts declares gameId "${verifier.gameId}"`);

    games.push({
      manifest,
      verifierChecksum: sha256(verifierJs),
      verifierPath: `/verifiers/${id}.js`,
      buildChecksum: sha256(gameJs),
      featureNames: [...verifier.features.names],
      basePath: `/games/${id}/`,
    });
  }
  // Third-party games registered with `arcade-gym add-game` (games-external/): copied, not compiled.
  games.push(...(await buildExternalGames({ only, builtGamesDir: BUILT_GAMES_DIR, verifiersDir: path.join(PUBLIC_DIR, 'verifiers') })));
  games.sort((a, b) => (a.manifest.id < b.manifest.id ? -1 : a.manifest.id > b.manifest.id ? 1 : 0));
  const catalog: Catalog = { runtimeVersion: RUNTIME_VERSION, runtimeChecksum: sha256(runtimeSource), games };
  await mkdir(path.dirname(CATALOG_PATH), { recursive: true }); // no game folder was made when only URL games are built
  await writeFile(CATALOG_PATH, JSON.stringify(catalog, null, 2) + '\n');
  return catalog;
}

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
