import { ArcadeGymError } from '../errors';
import { ServiceError } from '../pool/errors';

/** An error with an HTTP status, raised by the server itself (routing, bodies, auth). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Status of each error code the gym raises; anything unknown is a 500 (a bug, never a client's fault). */
const STATUS: Record<string, number> = {
  INVALID_ACTION: 400,
  ACTION_OUT_OF_RANGE: 400,
  INVALID_OPTIONS: 400,
  UNKNOWN_GAME: 404,
  SESSION_NOT_FOUND: 404,
  RESET_NEEDED: 409,
  EPISODE_ENDED: 409,
  SESSION_BUSY: 409,
  ENV_CLOSED: 410,
  SESSION_CLOSED: 410,
  // The server is at session capacity: a temporary condition of the server, not a client's rate (RFC 9110 503 + Retry-After).
  BUSY: 503,
  BROWSER_UNAVAILABLE: 503,
  BROWSER_NOT_FOUND: 503,
  RESET_FAILED: 503,
  POOL_CLOSED: 503,
  SHUTTING_DOWN: 503,
  GAME_NOT_BUILT: 503,
  STEP_TIMEOUT: 503,
  PAGE_CRASHED: 503,
  RUNTIME_MISSING: 500,
};

export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: { error: { code: string; message: string; retryAfterMs?: number } };
}

export function errorReply(e: unknown): ErrorReply {
  if (e instanceof HttpError) return { status: e.status, headers: e.headers, body: { error: { code: e.code, message: e.message } } };
  if (e instanceof ServiceError) {
    const headers: Record<string, string> = {};
    const body: ErrorReply['body'] = { error: { code: e.code, message: e.message } };
    if (e.retryAfterMs !== undefined) {
      headers['retry-after'] = String(Math.ceil(e.retryAfterMs / 1000));
      body.error.retryAfterMs = e.retryAfterMs;
    }
    return { status: STATUS[e.code] ?? 500, headers, body };
  }
  if (e instanceof ArcadeGymError) return { status: STATUS[e.code] ?? 500, headers: {}, body: { error: { code: e.code, message: e.message } } };
  return { status: 500, headers: {}, body: { error: { code: 'INTERNAL', message: 'The server failed to answer this request (a bug): see its log' } } };
}
