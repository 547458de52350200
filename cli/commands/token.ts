import path from 'node:path';
import { readAdminSecret } from '../../leaderboard/admin-secret';
import { ApiCallError, callApi, defaultServerUrl } from '../../leaderboard/client';
import { openDatabase } from '../../leaderboard/db';
import { DatabaseBusyError, readLock } from '../../leaderboard/dir-lock';
import { dataDir, pgliteDir } from '../../leaderboard/paths';
import { createToken, type CreatedToken } from '../../leaderboard/tokens';
import { type Command, stringOption, switchFlags, UsageError, valueFlags } from '../command';

/**
 * Where the token is written depends on who owns the database:
 * - DATABASE_URL set: straight into PostgreSQL (any number of processes may use it);
 * - the embedded database, free: this process opens it for a moment and writes the token;
 * - the embedded database, owned by the running site: the site creates it, asked over HTTP
 *   with the admin secret it keeps in the data folder (PGlite allows one process per folder).
 */
async function create(name: string, admin: boolean, server: string | undefined): Promise<{ token: CreatedToken; via: string }> {
  if (process.env.DATABASE_URL) {
    const database = await openDatabase({ url: process.env.DATABASE_URL });
    try {
      return { token: await createToken(database.db, { name, admin }), via: `PostgreSQL (${database.location})` };
    } finally {
      await database.close();
    }
  }
  const dir = pgliteDir();
  if (!readLock(dir)) {
    try {
      const database = await openDatabase({ dataDir: dir, role: 'arcade-gym token create' });
      try {
        return { token: await createToken(database.db, { name, admin }), via: `the embedded database at ${dir}` };
      } finally {
        await database.close();
      }
    } catch (e) {
      // The site took the folder between our look and our open: ask it instead.
      if (!(e instanceof DatabaseBusyError)) throw e;
    }
  }
  const owner = readLock(dir);
  const url = (server ?? owner?.url ?? defaultServerUrl()).replace(/\/+$/, '');
  const secret = readAdminSecret();
  if (!secret) {
    throw new UsageError(
      `The embedded database at ${dir} is in use by process ${owner?.pid ?? '?'}, and there is no admin secret at ${path.join(dataDir(), 'admin-secret')} to ask it for a token. Stop that process, or run this as the user running the site.`,
    );
  }
  try {
    const { body } = await callApi<CreatedToken>(`${url}/api/admin/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify({ name, admin }),
    });
    return { token: body, via: `the running site at ${url}` };
  } catch (e) {
    if (e instanceof ApiCallError) throw new UsageError(`${e.message}${e.code !== 'UNREACHABLE' ? ` (${e.code})` : ''}`);
    throw e;
  }
}

export const tokenCommand: Command = {
  name: 'token',
  summary: 'Create an API token for submitting runs to the leaderboard',
  usage: 'arcade-gym token create [--name NAME] [--admin] [--server URL]   (uses DATABASE_URL, or the embedded database under ARCADE_DATA_DIR or ./.data)',
  positionals: true,
  options: { ...valueFlags('name', 'server'), ...switchFlags('admin') },
  async run({ values, positionals }) {
    if (positionals[0] !== 'create' || positionals.length > 1) throw new UsageError(`expected "token create"\n\nUsage: ${tokenCommand.usage}`);
    const name = stringOption(values, 'name') ?? `token-${new Date().toISOString().slice(0, 10)}`;
    const { token, via } = await create(name, values.admin === true, stringOption(values, 'server'));
    console.error(
      `Created ${token.admin ? 'admin ' : ''}token "${token.name}" (id ${token.id}) in ${via}. It is shown only once; the server keeps only its sha256.`,
    );
    console.error('Use it with:  export ARCADE_TOKEN=<token>   then   npx arcade-gym submit run.jsonl');
    console.log(token.token);
  },
};
