import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { ROOT } from '../paths';

/**
 * The one set of esbuild options behind every script the gym ships to a page: the runtime,
 * our games and every verifier. A verifier's checksum (in every record) is the sha256 of the
 * bundle these options make, so they live here only: changing one changes every checksum.
 */
export async function bundleScript(entry: { file: string } | { contents: string }, outfile: string, opts: { quiet?: boolean } = {}): Promise<string> {
  await build({
    ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.contents, resolveDir: ROOT, loader: 'ts' } }),
    outfile,
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    legalComments: 'none',
    minify: true,
    // Log levels change what is printed, never what is written.
    logLevel: opts.quiet ? 'silent' : 'warning',
    charset: 'utf8',
  });
  return readFile(outfile, 'utf8');
}

/**
 * The stub a verifier is bundled from: it hands the verifier's default export to the runtime
 * (which may load first or not at all, as in a plain visible page).
 */
export function verifierStub(file: string): string {
  return `import v from ${JSON.stringify(file)};
const g = globalThis;
if (g.__arcadeRegisterVerifier) g.__arcadeRegisterVerifier(v); else g.__arcadeVerifier = v;`;
}
