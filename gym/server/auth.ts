import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ArcadeGymError } from '../errors';
import { HttpError } from './http-errors';

/** Whether `host` only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The server binds to loopback by default. Listening anywhere else exposes browsers that run
 * code on this machine's behalf, so a token is required there: refuse to start without one.
 */
export function assertSafeBinding(host: string, token: string | undefined): void {
  if (!isLoopback(host) && !token) {
    throw new ArcadeGymError(
      'INVALID_OPTIONS',
      `Refusing to listen on ${host} without a token: pass --token (or set ARCADE_GYM_TOKEN), or listen on 127.0.0.1`,
    );
  }
  if (token !== undefined && token.length < 8) throw new ArcadeGymError('INVALID_OPTIONS', 'The token must be at least 8 characters long');
}

/** Checks `Authorization: Bearer <token>` in constant time. */
export function checkToken(req: IncomingMessage, token: string | undefined): void {
  if (!token) return;
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(header);
  const given = Buffer.from(m?.[1].trim() ?? '', 'utf8');
  const want = Buffer.from(token, 'utf8');
  if (given.byteLength !== want.byteLength || !timingSafeEqual(given, want)) {
    throw new HttpError(401, 'UNAUTHORIZED', 'Missing or wrong token: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer' });
  }
}
