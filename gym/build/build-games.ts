import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DECISIONS_GLOBAL, offeredKinds } from '../actions';
import { gameDecisionsFile, importGameDecisions } from '../actions/node-decisions';
import type { Catalog, CatalogDecisions, CatalogEntry } from '../catalog-schema';
import { buildExternalGames } from '../external/build-external';
import { BUILT_GAMES_DIR, CATALOG_PATH, GAMES_DIR, PUBLIC_DIR, ROOT, RUNTIME_BUNDLE_PATH, VERIFIERS_DIR } from '../paths';
import { RUNTIME_VERSION } from '../runtime/protocol';
import { GameManifest } from '../schema/manifest';
import { bundleScript } from './bundle';
import { bundleTrainer } from './trainer-bundle';
import { bundleVerifier, inspectVerifierBundle } from './verifier-bundle';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

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

/**
 * The game's decisions module (games/<id>/decisions.ts), when it has one: the action sets it
 * offers, read from its default export, and its bundle for pages, which registers the module
 * under DECISIONS_GLOBAL (gym/actions/load-decisions.ts loads it there).
 */
async function buildDecisions(id: string, outDir: string): Promise<CatalogDecisions | undefined> {
  const file = gameDecisionsFile(id);
  if (!file) return undefined;
  const kinds = offeredKinds(await importGameDecisions(id), path.relative(ROOT, file));
  const stub = `import d from ${JSON.stringify(file)};
const g = globalThis;
(g[${JSON.stringify(DECISIONS_GLOBAL)}] = g[${JSON.stringify(DECISIONS_GLOBAL)}] || {})[${JSON.stringify(id)}] = d;`;
  await bundleScript({ contents: stub }, path.join(outDir, 'decisions.js'));
  return { script: `/games/${id}/decisions.js`, ...kinds };
}

/** Builds one of our games (games/<id>/) into `builtDir`/<id>/ (public/games/ once swapped in) and bundles its verifier. */
async function buildOwnGame(id: string, builtDir: string): Promise<CatalogEntry> {
  const dir = path.join(GAMES_DIR, id);
  const parsed = GameManifest.safeParse(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')));
  if (!parsed.success) throw new Error(`games/${id}/manifest.json is invalid: ${parsed.error.message}`);
  const manifest = parsed.data;
  if (manifest.id !== id) throw new Error(`games/${id}/manifest.json has id "${manifest.id}"; it must match its folder`);

  const outDir = path.join(builtDir, id);
  await mkdir(outDir, { recursive: true });
  const gameJs = await bundleScript({ file: path.join(dir, 'main.ts') }, path.join(outDir, 'game.js'));
  await writeFile(path.join(outDir, 'index.html'), gameHtml(manifest));
  if (existsSync(path.join(dir, 'assets'))) await cp(path.join(dir, 'assets'), path.join(outDir, 'assets'), { recursive: true });

  const verifierFile = path.join(VERIFIERS_DIR, `${id}.ts`);
  if (!existsSync(verifierFile)) throw new Error(`games/${id} has no verifier: expected verifiers/${id}.ts`);
  const verifierJs = await bundleVerifier(verifierFile, path.join(PUBLIC_DIR, 'verifiers', `${id}.js`));
  const verifier = inspectVerifierBundle(verifierJs, `verifiers/${id}.ts`);
  if (verifier.gameId !== id) throw new Error(`verifiers/${id}.ts declares gameId "${verifier.gameId}"`);

  const decisions = await buildDecisions(id, outDir);
  return {
    manifest,
    verifierChecksum: sha256(verifierJs),
    verifierPath: `/verifiers/${id}.js`,
    buildChecksum: sha256(gameJs),
    featureNames: verifier.featureNames,
    actionMask: verifier.actionMask,
    basePath: `/games/${id}/`,
    ...(decisions ? { decisions } : {}),
  };
}

/** Replaces `target` with the finished `staging` folder: two renames, so the folder is missing for an instant at most, never half built. */
async function swapIn(staging: string, target: string): Promise<void> {
  const old = `${target}.old-${process.pid}-${Date.now()}`;
  await rename(target, old).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  await rename(staging, target);
  await rm(old, { recursive: true, force: true });
}

/**
 * Builds every game to static files under PUBLIC_DIR (served by the site and by the gym): our
 * games from games/<id>/, the third-party ones registered in games-external/, each verifier and
 * the in-page runtime; then writes the catalog with their checksums. Same sources, same bytes.
 * `npm run build:games`, the test setup and `arcade-gym add-game` all build through this.
 */
export async function buildGames(): Promise<Catalog> {
  // ARCADE_GAMES=a,b builds only those games (quicker while working on one game).
  const only = process.env.ARCADE_GAMES ? new Set(process.env.ARCADE_GAMES.split(',').map((s) => s.trim())) : null;
  const runtimeSource = await bundleScript({ file: path.join(ROOT, 'gym/runtime/index.ts') }, RUNTIME_BUNDLE_PATH);
  // Built beside the served folder and swapped in at the end, so that pages being served or
  // played meanwhile (a running site, a training run, another test) never find it half built.
  const staging = `${BUILT_GAMES_DIR}.staging-${process.pid}-${Date.now()}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await mkdir(path.join(PUBLIC_DIR, 'verifiers'), { recursive: true });

  const ids = (await readdir(GAMES_DIR, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && existsSync(path.join(GAMES_DIR, d.name, 'manifest.json')))
    .map((d) => d.name)
    .filter((id) => !only || only.has(id))
    .sort();

  const games: CatalogEntry[] = [];
  for (const id of ids) games.push(await buildOwnGame(id, staging));
  // Third-party games registered with `arcade-gym add-game` (games-external/): copied, not compiled.
  games.push(...(await buildExternalGames({ only, builtGamesDir: staging, verifiersDir: path.join(PUBLIC_DIR, 'verifiers') })));
  games.sort((a, b) => (a.manifest.id < b.manifest.id ? -1 : a.manifest.id > b.manifest.id ? 1 : 0));
  const catalog: Catalog = { runtimeVersion: RUNTIME_VERSION, runtimeChecksum: sha256(runtimeSource), games };
  await writeFile(path.join(staging, path.relative(BUILT_GAMES_DIR, CATALOG_PATH)), `${JSON.stringify(catalog, null, 2)}\n`);
  await swapIn(staging, BUILT_GAMES_DIR);
  // The site's /train/<game> page runs the trainer in the visitor's browser.
  await bundleTrainer();
  return catalog;
}
