/**
 * API tokens: random secrets shown once, stored only as their sha256, so a copy of the
 * database does not let anyone submit.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { apiTokens } from '../drizzle/schema';
import type { Db } from './db';

export const TOKEN_PREFIX = 'agt_';

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export interface CreatedToken {
  id: number;
  name: string;
  admin: boolean;
  /** The secret itself: shown once, never stored. */
  token: string;
}

export async function createToken(db: Db, opts: { name: string; admin?: boolean }): Promise<CreatedToken> {
  const token = generateToken();
  const [row] = await db
    .insert(apiTokens)
    .values({ name: opts.name, tokenHash: hashToken(token), tokenPrefix: token.slice(0, TOKEN_PREFIX.length + 6), admin: opts.admin ?? false })
    .returning({ id: apiTokens.id });
  return { id: row.id, name: opts.name, admin: opts.admin ?? false, token };
}

export interface AuthenticatedToken {
  id: number;
  name: string;
  admin: boolean;
}

/** The token an `Authorization: Bearer …` header names, or null if it is unknown or revoked. */
export async function authenticate(db: Db, token: string): Promise<AuthenticatedToken | null> {
  const [row] = await db
    .select({ id: apiTokens.id, name: apiTokens.name, admin: apiTokens.admin })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), isNull(apiTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  await db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.id, row.id));
  return row;
}

/** Constant-time comparison of two secrets (for the admin secret file). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(hashToken(a), 'hex');
  const y = Buffer.from(hashToken(b), 'hex');
  return timingSafeEqual(x, y);
}
