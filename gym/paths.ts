import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Folders of a checkout, resolved from this file so commands work from any directory. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GAMES_DIR = path.join(ROOT, 'games');
export const VERIFIERS_DIR = path.join(ROOT, 'verifiers');
/** Where built games go; ARCADE_PUBLIC_DIR lets parallel builds (and tests) use their own folder. */
export const PUBLIC_DIR = process.env.ARCADE_PUBLIC_DIR ? path.resolve(process.env.ARCADE_PUBLIC_DIR) : path.join(ROOT, 'public');
export const BUILT_GAMES_DIR = path.join(PUBLIC_DIR, 'games');
export const CATALOG_PATH = path.join(BUILT_GAMES_DIR, 'catalog.json');
export const RUNTIME_BUNDLE_PATH = path.join(PUBLIC_DIR, 'runtime', 'arcade-runtime.js');

/** Build output, dependencies, run output and caches: never the checkout's source. */
const NOT_SOURCE = new Set(['node_modules', 'public', 'dist', 'out', 'runs', 'test-results', 'playwright-report', 'scratch', '__pycache__']);

/**
 * The checkout's files below `dir` whose names match `names`, as absolute paths: hidden entries,
 * build and run output are passed over, and so are the folders in `skip` (absolute paths). For
 * the tests that read the whole source tree (layers, entry points, file sizes).
 */
export function checkoutFiles(dir: string, names: RegExp, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.name.startsWith('.') || NOT_SOURCE.has(e.name) || skip.includes(p)) continue;
    if (e.isDirectory()) out.push(...checkoutFiles(p, names, skip));
    else if (names.test(e.name)) out.push(p);
  }
  return out;
}
