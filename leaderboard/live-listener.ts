/**
 * A worker's live listener: `POST /live/<ticket>/<reset|step|claims|close>` on plain node:http,
 * answered by the worker's LivePlay. The ticket names this listener (`live.endpoint`), so a player
 * steps the worker directly, one keep-alive round trip a step, with nothing between it and the
 * session. Listeners of this process are also found by URL (`localLivePlay`), so the site's route
 * calls a host in its own process without HTTP.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from './api-error';
import { errorReply, isLiveCall, type LiveReply, wantsBinary } from './live-call';
import { type LivePlay, MAX_CLAIMS_BODY } from './live-play';

const KEY = Symbol.for('arcade-gym.live-listeners');
const g = globalThis as Record<symbol, Map<string, LivePlay> | undefined>;
const listeners = (g[KEY] ??= new Map());

/** The LivePlay answering at `url` in this process, if any. */
export function localLivePlay(url: string): LivePlay | undefined {
  return listeners.get(url);
}

export interface LiveListenOptions {
  /** The interface to listen on (default 127.0.0.1) and port (default 0: any free one). */
  host?: string;
  port?: number;
  /** The URL players reach it at, where it differs from the address listened on (a proxy, another host name). */
  publicUrl?: string;
}

export interface LiveListener {
  url: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    // The play refuses what is over its limits with their numbers; past the largest, stop reading.
    if (size > MAX_CLAIMS_BODY + 1) return null;
    chunks.push(chunk as Buffer);
  }
  return (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
}

function route(url: string | undefined): { ticketId: string; call: string } | null {
  const m = /^\/live\/([^/?]+)\/([a-z]+)(?:\?.*)?$/.exec(url ?? '');
  return m ? { ticketId: decodeURIComponent(m[1]), call: m[2] } : null;
}

export async function listenLive(live: LivePlay, worker: string, opts: LiveListenOptions = {}): Promise<LiveListener> {
  const server: Server = createServer((req, res) => {
    const send = (reply: LiveReply) => {
      res.writeHead(reply.status, { ...reply.headers, 'content-length': reply.body.byteLength });
      res.end(reply.body);
    };
    const target = route(req.url);
    if (!target || !isLiveCall(target.call) || req.method !== 'POST') {
      req.resume();
      send(errorReply(new ApiError('NOT_FOUND', `No live call ${req.method} ${req.url}: a live ticket has POST /live/<ticket>/reset, step, claims and close`)));
      return;
    }
    const call = target.call;
    readBody(req)
      .then((body) =>
        body === null
          ? errorReply(new ApiError('PAYLOAD_TOO_LARGE', `A live call's body is at most ${MAX_CLAIMS_BODY} bytes`, { maxBytes: MAX_CLAIMS_BODY }))
          : live.call(call, target.ticketId, { authorization: req.headers.authorization ?? null, binary: wantsBinary(req.headers.accept), body }),
      )
      .then(send, (e: unknown) => {
        console.error('arcade-gym: live listener failed:', e);
        send(errorReply(new ApiError('INTERNAL', 'The live listener failed to answer')));
      });
  });
  // Players step for as long as an episode lasts: keep their connections open between steps.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  const url = (opts.publicUrl ?? `http://${host}:${port}`).replace(/\/+$/, '');
  live.setAddress(url, worker);
  listeners.set(url, live);
  return {
    url,
    close: async () => {
      listeners.delete(url);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
