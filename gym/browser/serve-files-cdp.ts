import type { PageChannel } from './cdp-channel';
import { GAME_ORIGIN, type Mount, servedResponse } from './serve-files';

/**
 * Serves the games' origin to one page through its own CDP channel (the Fetch domain), instead
 * of Playwright's route handler (`serveFiles`), for pages that load many game documents (batch
 * pages, gym/batch: a reset or a verified episode is a frame load). Two costs go: Playwright's
 * per-request work in this process (its route, request and response objects), and the HTTP
 * cache being off, which Playwright's interception turns off for the whole page. Files come
 * with a cache lifetime, so a frame's later loads take a game's scripts and assets from the
 * renderer's memory cache without a request; only documents (navigations) are asked for again.
 * The files are those of `serveFiles` (its cache never rereads a file while the process runs,
 * so the browser's copy is the same bytes). Covers the page and its same-origin frames; call it
 * before the page's first navigation.
 */
const FILE_CACHE_CONTROL = 'max-age=86400';

const base64Of = new WeakMap<Buffer, string>();
const encode = (body: Buffer | string): string => {
  if (typeof body === 'string') return Buffer.from(body).toString('base64');
  let b64 = base64Of.get(body);
  if (b64 === undefined) base64Of.set(body, (b64 = body.toString('base64')));
  return b64;
};

interface RequestPaused {
  requestId: string;
  request: { url: string };
}

export async function serveFilesOverChannel(channel: PageChannel, mounts: Mount[], documents: Record<string, string> = {}): Promise<void> {
  channel.on('Fetch.requestPaused', (params) => {
    const { requestId, request } = params as unknown as RequestPaused;
    void servedResponse(request.url, mounts, documents)
      .then((r) =>
        channel.send('Fetch.fulfillRequest', {
          requestId,
          responseCode: r.status,
          responseHeaders: [
            { name: 'content-type', value: r.contentType },
            { name: 'cache-control', value: r.file ? FILE_CACHE_CONTROL : 'no-store' },
          ],
          body: encode(r.body),
        }),
      )
      // A URL that cannot be served fails as a network error; a page gone meanwhile waits for nothing.
      .catch(() => channel.send('Fetch.failRequest', { requestId, errorReason: 'Failed' }).catch(() => undefined));
  });
  await channel.send('Fetch.enable', { patterns: [{ urlPattern: `${GAME_ORIGIN}/*`, requestStage: 'Request' }] });
}
