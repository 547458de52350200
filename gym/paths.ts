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
