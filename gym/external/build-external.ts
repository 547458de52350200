import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CatalogEntry } from '../catalog-schema';
import { GAMES_DIR } from '../paths';
import { GameManifest } from '../schema/manifest';
import { describeTreeChanges, externalBuildChecksum, hashTree, isIgnoredName, sha256 } from './checksums';
import { EXTERNAL_GAMES_DIR, GAME_FILES_DIR, MANIFEST_FILE, SOURCE_FILE, externalGameDir, externalVerifierFile } from './paths';
import { ExternalSource } from './source-record';
import { injectRuntimeTags } from './inject-runtime';
import { bundleVerifier, inspectVerifierBundle } from '../build/verifier-bundle';

export interface ExternalBuildOptions {
  /** Only these ids (ARCADE_GAMES); null for all. */
  only: ReadonlySet<string> | null;
  /** public/games: each folder game is copied to <builtGamesDir>/<id>/. */
  builtGamesDir: string;
  /** public/verifiers: each verifier bundle goes to <verifiersDir>/<id>.js. */
  verifiersDir: string;
}

/** Ids of the registered third-party games (folders with a manifest), sorted. */
export async function externalGameIds(): Promise<string[]> {
  if (!existsSync(EXTERNAL_GAMES_DIR)) return [];
  return (
    (await readdir(EXTERNAL_GAMES_DIR, { withFileTypes: true }))
      // Dot folders are add-game's staging areas, never games.
      .filter((d) => d.isDirectory() && !d.name.startsWith('.') && existsSync(path.join(EXTERNAL_GAMES_DIR, d.name, MANIFEST_FILE)))
      .map((d) => d.name)
      .sort()
  );
}

export async function readExternalManifest(id: string): Promise<GameManifest> {
  const file = path.join(externalGameDir(id), MANIFEST_FILE);
  const parsed = GameManifest.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is invalid: ${parsed.error.message}`);
  if (parsed.data.id !== id) throw new Error(`${file} has id "${parsed.data.id}"; it must match its folder`);
  return parsed.data;
}

export async function readExternalSource(id: string): Promise<ExternalSource> {
  const file = path.join(externalGameDir(id), SOURCE_FILE);
  if (!existsSync(file)) throw new Error(`${externalGameDir(id)} has no ${SOURCE_FILE}: register the game with \`arcade-gym add-game\``);
  const parsed = ExternalSource.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is invalid: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * Builds the catalog entries of the registered third-party games. Nothing of theirs is
 * compiled: folder games are copied as they are (after checking their files still match the
 * checksums recorded when they were added), with the runtime's script tags added to the entry
 * page for the site's player; URL games stay where they are. In the gym the runtime and the
 * verifier reach their pages through the env's init script, whatever the origin.
 */
export async function buildExternalGames(opts: ExternalBuildOptions): Promise<CatalogEntry[]> {
  const entries: CatalogEntry[] = [];
  for (const id of await externalGameIds()) {
    if (opts.only && !opts.only.has(id)) continue;
    // An id names one game everywhere (records, leaderboard): never shadow one of ours.
    if (existsSync(path.join(GAMES_DIR, id, 'manifest.json')))
      throw new Error(`games-external/${id} reuses the id of games/${id}: give the third-party game another id`);
    const manifest = await readExternalManifest(id);
    const source = await readExternalSource(id);
    if (source.id !== id) throw new Error(`${path.join(externalGameDir(id), SOURCE_FILE)} is for "${source.id}", not "${id}"`);

    if (source.source.kind === 'folder') {
      const dir = path.join(externalGameDir(id), GAME_FILES_DIR);
      const current = existsSync(dir) ? await hashTree(dir) : {};
      const changes = describeTreeChanges(source.files, current);
      if (changes.length) {
        throw new Error(
          `games-external/${id}/${GAME_FILES_DIR} no longer matches the checksums recorded when it was added (${changes.slice(0, 5).join(', ')}${changes.length > 5 ? ', …' : ''}). If the change is intended, register it again with \`arcade-gym add-game ... --force\``,
        );
      }
      if (!(manifest.entry in current)) throw new Error(`games-external/${id}: the entry page ${manifest.entry} is not among the game's files`);
      const out = path.join(opts.builtGamesDir, id);
      await cp(dir, out, { recursive: true, filter: (src) => !isIgnoredName(path.basename(src)) });
      const entry = path.join(out, manifest.entry);
      await writeFile(entry, injectRuntimeTags(await readFile(entry, 'utf8'), id));
    }

    const verifierFile = externalVerifierFile(id);
    if (!verifierFile) throw new Error(`games-external/${id} has no verifier: expected verifier.ts or verifier.js`);
    await mkdir(opts.verifiersDir, { recursive: true });
    const verifierJs = await bundleVerifier(verifierFile, path.join(opts.verifiersDir, `${id}.js`), { quiet: true });
    const info = inspectVerifierBundle(verifierJs, verifierFile);
    if (info.gameId !== id) throw new Error(`${verifierFile} declares gameId "${info.gameId}"`);

    const url = source.source.kind === 'url' ? source.source.url : undefined;
    entries.push({
      manifest,
      verifierChecksum: sha256(verifierJs),
      verifierPath: `/verifiers/${id}.js`,
      buildChecksum: externalBuildChecksum(source),
      featureNames: info.featureNames,
      actionMask: info.actionMask,
      // A URL game's files stay on its server; links to "the game folder" go there.
      basePath: url ? new URL('.', url).href : `/games/${id}/`,
      ...(url ? { url } : {}),
      external: { kind: source.source.kind, source: source.source.kind === 'url' ? source.source.url : (source.source.origin ?? source.source.from) },
    });
  }
  return entries;
}
