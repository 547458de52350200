import { z } from 'zod';
import { readAdminSecret } from '../../../../leaderboard/admin-secret';
import { ApiError, jsonResponse } from '../../../../leaderboard/api-error';
import { serverContext } from '../../../../leaderboard/server';
import { createToken, sameSecret } from '../../../../leaderboard/tokens';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({ name: z.string().min(1).max(100), admin: z.boolean().default(false) });

/**
 * Creates an API token while this server owns the embedded database (`arcade-gym token create`
 * comes here then). Authorised by the secret the server wrote to its data folder: only someone
 * who can read that folder, and so the database itself, may mint tokens.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const { database } = await serverContext();
    const secret = readAdminSecret();
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!secret || !given || !sameSecret(given, secret)) {
      throw new ApiError(
        'FORBIDDEN',
        'Creating tokens needs the admin secret from the server’s data folder; run `npx arcade-gym token create` on the server machine',
      );
    }
    let json: unknown;
    try {
      json = await request.json();
    } catch {
      throw new ApiError('INVALID_JSON', 'The body is not JSON');
    }
    const parsed = Body.safeParse(json);
    if (!parsed.success) throw new ApiError('INVALID_SUBMISSION', `Invalid body: ${parsed.error.issues[0].message}`);
    const created = await createToken(database.db, parsed.data);
    return jsonResponse(201, created);
  } catch (e) {
    if (e instanceof ApiError) return e.toResponse();
    console.error('POST /api/admin/tokens failed:', e);
    return new ApiError('INTERNAL', 'Could not create the token').toResponse();
  }
}
