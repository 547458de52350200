import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExternalSource } from './source-record';

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** Names never copied from a game folder nor checksummed: version-control and OS clutter. */
const IGNORED = new Set(['.git', '.hg', '.svn', '.DS_Store', 'Thumbs.db', 'node_modules']);
export const isIgnoredName = (name: string) => IGNORED.has(name);

/** Every file under `dir` (relative, '/'-separated, sorted) with its sha256. */
export async function hashTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (isIgnoredName(e.name)) continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(child);
      else if (e.isFile()) out[child] = sha256(await readFile(path.join(dir, child)));
    }
  };
  await walk('');
  return out;
}

/** One checksum for a set of files: changes when any file, name or the set changes. */
export function treeChecksum(files: Record<string, string>): string {
  return sha256(
    Object.keys(files)
      .sort()
      .map((f) => `${files[f]}  ${f}\n`)
      .join(''),
  );
}

/** The differences between recorded and current checksums, in words. */
export function describeTreeChanges(recorded: Record<string, string>, current: Record<string, string>): string[] {
  const changes: string[] = [];
  for (const f of Object.keys(recorded).sort()) {
    if (!(f in current)) changes.push(`${f} is missing`);
    else if (current[f] !== recorded[f]) changes.push(`${f} changed`);
  }
  for (const f of Object.keys(current).sort()) if (!(f in recorded)) changes.push(`${f} is new`);
  return changes;
}

/**
 * The catalog's buildChecksum of a third-party game: its files for a folder game; for a URL
 * game, the URL and the entry page as fetched when it was added (the server may change it).
 */
export function externalBuildChecksum(record: ExternalSource): string {
  return record.source.kind === 'folder' ? treeChecksum(record.files) : sha256(`${record.source.url}\n${record.source.entrySha256}`);
}
