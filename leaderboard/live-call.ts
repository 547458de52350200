/**
 * One live call as both of its transports hand it over: the site's route (a Web Request) and a
 * worker's own listener (node:http, live-listener.ts). The play itself (live-play.ts) sees only
 * this shape, so that a step through the worker's listener costs no Request/Response objects.
 */
import type { ApiError } from './api-error';

export const LIVE_CALLS = ['reset', 'step', 'claims', 'close'] as const;
export type LiveCallName = (typeof LIVE_CALLS)[number];

export function isLiveCall(name: string): name is LiveCallName {
  return (LIVE_CALLS as readonly string[]).includes(name);
}

export interface LiveCall {
  /** The Authorization header's value. */
  authorization: string | null;
  /** The caller accepts the gym's binary frame (`Accept: application/octet-stream`). */
  binary: boolean;
  /** The body as text (JSON). */
  body: string;
}

export interface LiveReply {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export function wantsBinary(accept: string | null | undefined): boolean {
  return (accept ?? '').includes('application/octet-stream');
}

export async function liveCallOf(request: Request): Promise<LiveCall> {
  return { authorization: request.headers.get('authorization'), binary: wantsBinary(request.headers.get('accept')), body: await request.text() };
}

export function responseOf(reply: LiveReply): Response {
  return new Response(reply.body as Uint8Array<ArrayBuffer>, { status: reply.status, headers: reply.headers });
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): LiveReply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(JSON.stringify(body), 'utf8') };
}

/** An API error as the API answers it everywhere (`{ error: { code, message, details? } }`). */
export function errorReply(e: ApiError): LiveReply {
  return jsonReply(e.status, e.body(), e.headers);
}
