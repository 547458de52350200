/**
 * `GET /api/admin/human-players` (every player, candidates first, with their episodes per game)
 * and `POST /api/admin/human-players` `{ name, status: "accepted" | "rejected" }`: an admin
 * token decides whose play makes the human references.
 */
import { ApiError, invalidAt, jsonResponse } from './api-error';
import type { Db } from './db';
import { decidePlayer, listPlayers } from './human-players';
import { parseJson, requireToken } from './submissions';
import { HumanPlayerDecision } from './visitor-play-schema';

async function requireAdmin(db: Db, request: Request) {
  const token = await requireToken(db, request);
  if (!token.admin) throw new ApiError('FORBIDDEN', 'Deciding on human players needs an admin token (`arcade-gym token create --admin`)');
  return token;
}

export function createHumanPlayerHandlers(db: Db) {
  const guard = async (what: string, f: () => Promise<Response>): Promise<Response> => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      console.error(`${what} failed:`, e);
      return new ApiError('INTERNAL', 'The server failed; nothing was changed').toResponse();
    }
  };
  return {
    list: (request: Request) =>
      guard('GET /api/admin/human-players', async () => {
        await requireAdmin(db, request);
        return jsonResponse(200, { players: await listPlayers(db) });
      }),
    decide: (request: Request) =>
      guard('POST /api/admin/human-players', async () => {
        await requireAdmin(db, request);
        const parsed = HumanPlayerDecision.safeParse(parseJson(await request.text()));
        if (!parsed.success) throw invalidAt('decision', parsed.error.issues[0]);
        return jsonResponse(200, { player: await decidePlayer(db, parsed.data.name, parsed.data.status) });
      }),
  };
}
