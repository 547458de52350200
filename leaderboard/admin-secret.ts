/**
 * While the web server owns the embedded database, no other process may open it. Tools on the
 * same machine (`arcade-gym token create`) then ask the server, proving they may by reading
 * this secret, which the server writes readable only by its own user. Reading the data folder
 * already gives full access to the data, so the secret grants nothing more than that.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from './paths';

export const adminSecretPath = (base = dataDir()) => path.join(base, 'admin-secret');

export function writeAdminSecret(base = dataDir()): string {
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(base, { recursive: true });
  writeFileSync(adminSecretPath(base), `${secret}\n`, { mode: 0o600 });
  return secret;
}

export function readAdminSecret(base = dataDir()): string | null {
  try {
    return readFileSync(adminSecretPath(base), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
