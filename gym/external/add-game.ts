import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ArcadeGymError } from '../errors';
import { GAMES_DIR, ROOT } from '../paths';
import { GameManifest } from '../schema/manifest';
import { externalBuildChecksum, hashTree, isIgnoredName, sha256 } from './checksums';
import { EXTERNAL_GAMES_DIR, GAME_FILES_DIR, MANIFEST_FILE, SOURCE_FILE, externalGameDir } from './paths';
import { ExternalSource } from './source-record';
import { bundleVerifier, inspectVerifierBundle } from '../build/verifier-bundle';

/** What `arcade-gym add-game` takes, from flags or from a config file. */
export const AddGameInput = z.strictObject({
  /** A folder holding the game's files (with its entry page), or the http(s) URL of its entry page. */
  source: z.string().min(1),
  /** Path of the game's manifest.json (schema: gym/schema/manifest.ts). */
  manifest: z.string().min(1),
  /**
   * Where a folder game came from (an http(s) URL: its repository or download page), recorded in
   * source.json so others can fetch the same files; a folder outside the checkout is otherwise
   * recorded by its name alone.
   */
  origin: z.url({ protocol: /^https?$/ }).optional(),
  /** Path of the verifier, verifier.ts or verifier.js. */
  verifier: z.string().regex(/\.(ts|js)$/, 'a .ts or .js file'),
  /** Optional scripted baseline, scripted-agent.ts or .js. */
  scriptedAgent: z
    .string()
    .regex(/\.(ts|js)$/, 'a .ts or .js file')
    .optional(),
  /** Replace a game already registered under the same id. */
  force: z.boolean().default(false),
  /** Timeout for fetching a URL game's entry page. */
  fetchTimeoutMs: z.number().int().positive().default(15_000),
});
export type AddGameInput = z.input<typeof AddGameInput>;

export interface AddGameResult {
  id: string;
  dir: string;
  source: ExternalSource;
  buildChecksum: string;
  featureNames: string[];
  /** The registration this one replaced (--force), kept aside until `settleAddGame`. */
  previous: string | null;
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);
const fail = (message: string): never => {
  throw new ArcadeGymError('INVALID_OPTIONS', message);
};

/**
 * What source.json records of a folder: its path relative to the checkout when it lies inside
 * it, else only its name. Never an absolute path, which would name one machine's (often
 * temporary) folder; `--origin` records where others can get the files.
 */
function folderLabel(dir: string): string {
  const rel = path.relative(ROOT, dir);
  return !rel || rel.startsWith('..') || path.isAbsolute(rel) ? path.basename(dir) : rel.split(path.sep).join('/');
}

async function readManifest(file: string): Promise<{ manifest: GameManifest; text: string }> {
  if (!existsSync(file)) fail(`manifest ${file} does not exist`);
  const text = await readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return fail(`manifest ${file} is not JSON: ${e instanceof Error ? e.message : e}`);
  }
  const parsed = GameManifest.safeParse(json);
  if (!parsed.success) {
    return fail(`manifest ${file} is invalid:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n')}`);
  }
  return { manifest: parsed.data, text };
}

async function fetchEntry(url: string, timeoutMs: number): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (e) {
    return fail(`could not fetch ${url}: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : e}`);
  }
  if (!res.ok) fail(`fetching ${url} gave HTTP ${res.status}`);
  return sha256(Buffer.from(await res.arrayBuffer()));
}

/** Checks the verifier by bundling it exactly as the build will, and returns what it declares. */
async function checkVerifier(file: string, id: string) {
  if (!existsSync(file)) fail(`verifier ${file} does not exist`);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'arcade-verifier-'));
  try {
    let js: string;
    try {
      js = await bundleVerifier(path.resolve(file), path.join(scratch, 'verifier.js'), { quiet: true });
    } catch (e) {
      return fail(`verifier ${file} does not build: ${e instanceof Error ? e.message : e}`);
    }
    let info;
    try {
      info = inspectVerifierBundle(js, file);
    } catch (e) {
      return fail(e instanceof Error ? e.message : String(e));
    }
    if (info.gameId !== id) fail(`verifier ${file} declares gameId "${info.gameId}" but the manifest's id is "${id}"`);
    return info;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function checkScriptedAgent(file: string, given: string): Promise<void> {
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (e) {
    return fail(`scripted agent ${given} does not load: ${e instanceof Error ? e.message : e}`);
  }
  if (typeof mod.default !== 'function') fail(`scripted agent ${given} must default-export a policy function (state, ctx) => action`);
}

/**
 * Scripted agents are ES modules loaded by Node; a registry outside this checkout has no
 * package.json saying so, which would make Node read them as CommonJS.
 */
async function ensureModuleScope(): Promise<void> {
  const rel = path.relative(ROOT, EXTERNAL_GAMES_DIR);
  const inside = !rel.startsWith('..') && !path.isAbsolute(rel);
  const pkg = path.join(EXTERNAL_GAMES_DIR, 'package.json');
  if (!inside && !existsSync(pkg)) await writeFile(pkg, `${JSON.stringify({ private: true, type: 'module' }, null, 2)}\n`);
}

/**
 * Registers a third-party game in games-external/<id>/: validates the manifest and the
 * verifier, copies the game's files (a folder) or records its URL, and writes source.json
 * with the sha256 of every file (or of the URL's entry page) so later builds can tell if the
 * game changed underneath its verifier. A registration it replaces (`force`) is kept aside
 * until `settleAddGame` keeps or undoes the new one (after the game was checked in the gym).
 */
export async function addExternalGame(raw: AddGameInput): Promise<AddGameResult> {
  const parsedInput = AddGameInput.safeParse(raw);
  if (!parsedInput.success) fail(`add-game: ${parsedInput.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const input = parsedInput.data!;
  const { manifest, text: manifestText } = await readManifest(input.manifest);
  const id = manifest.id;
  if (existsSync(path.join(GAMES_DIR, id, 'manifest.json')))
    fail(`"${id}" is already one of the gym's own games (games/${id}); give the third-party game another id`);

  const dest = externalGameDir(id);
  if (existsSync(path.join(dest, SOURCE_FILE)) && !input.force) fail(`a game "${id}" is already registered in ${dest}; pass --force to replace it`);

  // Validate everything before touching the registry.
  let source: ExternalSource['source'];
  let files: Record<string, string> = {};
  if (isUrl(input.source)) {
    if (input.origin) fail('--origin is for a game copied from a folder; a URL game is recorded by its URL');
    const url = new URL(input.source).href;
    source = { kind: 'url', url, entrySha256: await fetchEntry(url, input.fetchTimeoutMs) };
  } else {
    const dir = path.resolve(input.source);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) fail(`${input.source} is neither a folder nor an http(s) URL`);
    files = await hashTree(dir);
    if (!(manifest.entry in files)) fail(`${input.source} has no ${manifest.entry} (the manifest's entry page)`);
    source = { kind: 'folder', from: folderLabel(dir), ...(input.origin ? { origin: input.origin } : {}) };
  }
  const verifier = await checkVerifier(input.verifier, id);
  if (input.scriptedAgent && !existsSync(input.scriptedAgent)) fail(`scripted agent ${input.scriptedAgent} does not exist`);

  // Assemble the registration in a staging folder and swap it in whole, so a failure
  // never leaves a half-registered game that would break every later build.
  const staging = path.join(EXTERNAL_GAMES_DIR, `.staging-${id}-${process.pid}`);
  // Dot folders are never games: the replaced registration waits here until settleAddGame.
  const previous = path.join(EXTERNAL_GAMES_DIR, `.previous-${id}-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const record: ExternalSource = { schemaVersion: 1, id, source, files };
  try {
    if (source.kind === 'folder') {
      await cp(path.resolve(input.source), path.join(staging, GAME_FILES_DIR), { recursive: true, filter: (src) => !isIgnoredName(path.basename(src)) });
    }
    // The manifest is kept as written (defaults are applied when it is read).
    await writeFile(path.join(staging, MANIFEST_FILE), manifestText);
    await cp(input.verifier, path.join(staging, `verifier${path.extname(input.verifier)}`));
    if (input.scriptedAgent) {
      const agentFile = path.join(staging, `scripted-agent${path.extname(input.scriptedAgent)}`);
      await cp(input.scriptedAgent, agentFile);
      await ensureModuleScope();
      await checkScriptedAgent(agentFile, input.scriptedAgent);
    }
    await writeFile(path.join(staging, SOURCE_FILE), `${JSON.stringify(ExternalSource.parse(record), null, 2)}\n`);
    await rm(previous, { recursive: true, force: true });
    if (existsSync(dest)) await rename(dest, previous);
    await rename(staging, dest);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return {
    id,
    dir: dest,
    source: record,
    buildChecksum: externalBuildChecksum(record),
    featureNames: verifier.featureNames,
    previous: existsSync(previous) ? previous : null,
  };
}

/**
 * Ends a registration: kept (the replaced one, if any, is deleted) or undone (the game is
 * removed and the one it replaced put back), as when its check in the gym refused it.
 */
export async function settleAddGame(added: AddGameResult, keep: boolean): Promise<void> {
  if (!keep) {
    await rm(added.dir, { recursive: true, force: true });
    if (added.previous) await rename(added.previous, added.dir);
  } else if (added.previous) {
    await rm(added.previous, { recursive: true, force: true });
  }
}
