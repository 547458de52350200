import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Catalog } from '../gym/schema';

/**
 * The built games, read from public/ (the same files the site serves), or from ARCADE_PUBLIC_DIR
 * when set, as the gym's own code does (gym/paths.ts): the pages then describe exactly the
 * games the server verifies submissions against.
 */
export async function readCatalog(): Promise<Catalog> {
  const publicDir = process.env.ARCADE_PUBLIC_DIR ? path.resolve(process.env.ARCADE_PUBLIC_DIR) : path.join(process.cwd(), 'public');
  const file = path.join(publicDir, 'games', 'catalog.json');
  return Catalog.parse(JSON.parse(await readFile(file, 'utf8')));
}
