import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import vm from 'node:vm';
import { ROOT } from '../paths';

/**
 * Bundles a third-party verifier (verifier.ts or verifier.js: an ES module whose default
 * export is `{ gameId, read(win), features: { names, encode } }`) into the same standalone
 * in-page script scripts/build-games.ts makes for our own verifiers, and reads its id and
 * feature names by running that very script in a bare `vm` context, so what the catalog
 * says is what the page gets and the verifier needs no Node-resolvable imports.
 */
export async function bundleVerifier(file: string, outfile: string): Promise<string> {
  await build({
    stdin: {
      contents: `import v from ${JSON.stringify(file)};
const g = globalThis;
if (g.__arcadeRegisterVerifier) g.__arcadeRegisterVerifier(v); else g.__arcadeVerifier = v;`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    minify: true,
    logLevel: 'silent',
    charset: 'utf8',
  });
  return readFile(outfile, 'utf8');
}

export interface VerifierInfo {
  gameId: string;
  featureNames: string[];
}

/** Runs a verifier bundle outside any page and checks it has the shape of a verifier. */
export function inspectVerifierBundle(js: string, where: string): VerifierInfo {
  let registered: unknown = null;
  const sandbox: Record<string, unknown> = { __arcadeRegisterVerifier: (v: unknown) => (registered = v) };
  try {
    vm.runInNewContext(js, sandbox, { timeout: 2000, filename: where });
  } catch (e) {
    throw new Error(`${where}: the verifier failed to load outside a page (${e instanceof Error ? e.message : e}); it must only define functions at load time, not read the page`);
  }
  const v = registered as { gameId?: unknown; read?: unknown; features?: { names?: unknown; encode?: unknown } } | null;
  const problems: string[] = [];
  if (!v || typeof v !== 'object') problems.push('it has no default export object');
  else {
    if (typeof v.gameId !== 'string') problems.push('gameId is not a string');
    if (typeof v.read !== 'function') problems.push('read(win) is not a function');
    const names = v.features?.names;
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) problems.push('features.names is not an array of strings');
    if (typeof v.features?.encode !== 'function') problems.push('features.encode(state) is not a function');
  }
  if (problems.length) throw new Error(`${where} is not a verifier: ${problems.join('; ')}. Expected \`export default { gameId, read(win), features: { names, encode(state) } }\``);
  return { gameId: v!.gameId as string, featureNames: [...(v!.features!.names as string[])] };
}
