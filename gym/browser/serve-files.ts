import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Route } from 'playwright-core';

/**
 * Serves game files to a browser context straight from disk through request interception:
 * no HTTP server to start, and it works with browsers on other hosts too. `.localhost`
 * names are secure contexts, so WebGPU and other secure-only APIs are available.
 */
export const GAME_ORIGIN = 'http://arcade-gym.localhost';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const cache = new Map<string, Promise<Buffer | null>>();

function readCached(file: string): Promise<Buffer | null> {
  let hit = cache.get(file);
  if (!hit) {
    hit = readFile(file).catch(() => null);
    cache.set(file, hit);
  }
  return hit;
}

/** Drop cached files (after a rebuild in the same process). */
export function clearServedFileCache(): void {
  cache.clear();
}

/** Map URL paths under `prefix` to files under `dir`. */
export interface Mount {
  prefix: string;
  dir: string;
}

/** What a request for a served URL gets. */
export interface ServedResponse {
  status: number;
  body: Buffer | string;
  contentType: string;
  /** A file from a mount (immutable while the process runs: the cache above never rereads one). */
  file: boolean;
}

/** The response to `url` from `mounts` and `documents` (see `serveFiles`). */
export async function servedResponse(url: string, mounts: Mount[], documents: Record<string, string> = {}): Promise<ServedResponse> {
  const plain = (status: number, body: string): ServedResponse => ({ status, body, contentType: MIME['.txt'], file: false });
  let pathname = decodeURIComponent(new URL(url).pathname);
  const document = documents[pathname];
  if (document !== undefined) return { status: 200, body: document, contentType: MIME['.html'], file: false };
  if (pathname.endsWith('/')) pathname += 'index.html';
  const mount = mounts.find((m) => pathname.startsWith(m.prefix));
  if (!mount) return plain(404, 'not found');
  const file = path.join(mount.dir, pathname.slice(mount.prefix.length));
  // Never serve outside the mounted folder, whatever the URL says.
  if (!file.startsWith(path.resolve(mount.dir) + path.sep) && file !== path.resolve(mount.dir)) return plain(403, 'forbidden');
  const body = await readCached(file);
  if (!body) return plain(404, 'not found');
  return { status: 200, body, contentType: MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream', file: true };
}

/**
 * Serves `mounts` to the context; `documents` are in-memory pages at exact paths (such as the
 * batch host page, gym/batch), served before any mount so that they share the games' origin.
 */
export async function serveFiles(context: BrowserContext, mounts: Mount[], documents: Record<string, string> = {}): Promise<void> {
  await context.route(`${GAME_ORIGIN}/**`, async (route: Route) => {
    const r = await servedResponse(route.request().url(), mounts, documents);
    return route.fulfill(r.status === 200 ? { status: 200, body: r.body, headers: { 'content-type': r.contentType } } : { status: r.status, body: r.body });
  });
}
