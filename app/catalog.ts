import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Catalog } from '../gym/catalog-schema';

/** The built games, read from public/ (the same files the site serves). */
export async function readCatalog(): Promise<Catalog> {
  const file = path.join(process.cwd(), 'public', 'games', 'catalog.json');
  return Catalog.parse(JSON.parse(await readFile(file, 'utf8')));
}
