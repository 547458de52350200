import type { IncomingMessage } from 'node:http';
import { ArcadeGymError } from '../errors';
import { isLoopback } from './auth';
import { HttpError } from './http-errors';

/**
 * Who may call the server from a web page. Any page a person opens can send requests to
 * 127.0.0.1, and a page whose host name is re-pointed at 127.0.0.1 (DNS rebinding) can even
 * read the answers; browsers say where such requests come from (`Origin`) and to which name
 * they were sent (`Host`). Clients that are programs send neither an Origin nor a foreign Host.
 */
export interface OriginPolicy {
  /** Origins (scheme://host[:port]) whose pages may call the API, with CORS. */
  allowedOrigins: ReadonlySet<string>;
  /** On a loopback bind: answer only requests addressed to a loopback host name. */
  loopbackHostOnly: boolean;
}

const PREFLIGHT_MAX_AGE_S = 600;

/** Checks and normalises `--allow-origin` values: each must be exactly an origin, such as http://localhost:5173. */
export function originPolicy(bindHost: string, allowedOrigins: readonly string[] = []): OriginPolicy {
  const allowed = new Set<string>();
  for (const o of allowedOrigins) {
    let origin: string | null = null;
    try {
      const u = new URL(o);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin === o.replace(/\/$/, '').toLowerCase()) origin = u.origin;
    } catch {
      origin = null;
    }
    if (!origin) throw new ArcadeGymError('INVALID_OPTIONS', `Not an origin: "${o}" (write scheme://host[:port], such as http://localhost:5173)`);
    allowed.add(origin);
  }
  return { allowedOrigins: allowed, loopbackHostOnly: isLoopback(bindHost) };
}

/** The host name of a Host header, without its port ("[::1]:8787" → "::1"). */
function hostName(header: string): string {
  const h = header.trim();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') < 0 ? undefined : h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

/**
 * Refuses a request from a page of a foreign origin, or (on loopback) one addressed to a name
 * that is not loopback. Returns the CORS headers an allowed page's request is answered with.
 */
export function checkOrigin(req: IncomingMessage, policy: OriginPolicy): Record<string, string> {
  if (policy.loopbackHostOnly) {
    const host = req.headers.host;
    if (!host || !isLoopback(hostName(host))) {
      throw new HttpError(
        403,
        'FORBIDDEN_HOST',
        `This server listens on loopback and answers only requests addressed to 127.0.0.1, [::1] or localhost (Host was ${host ? `"${host}"` : 'missing'})`,
      );
    }
  }
  const origin = req.headers.origin;
  if (origin === undefined) return {};
  if (!policy.allowedOrigins.has(origin)) {
    const how = `start the server with --allow-origin ${origin} to allow them`;
    throw new HttpError(403, 'FORBIDDEN_ORIGIN', `Requests from web pages of ${origin} are refused: ${how}`);
  }
  return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'Retry-After' };
}

/** Headers answering an allowed origin's CORS preflight (OPTIONS with Access-Control-Request-Method). */
export function preflightHeaders(): Record<string, string> {
  return {
    'access-control-allow-methods': 'GET, POST, DELETE',
    'access-control-allow-headers': 'Authorization, Content-Type, Accept',
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
  };
}
