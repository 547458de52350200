import { z } from 'zod';
import { loadCatalog } from '../../../../gym/catalog';
import { EpisodeRecord } from '../../../../gym/schema/records';
import { readAdminSecret } from '../../../../leaderboard/admin-secret';
import { BASELINE_AGENTS } from '../../../../leaderboard/aggregates';
import { ApiError, jsonResponse } from '../../../../leaderboard/api-error';
import { syncGames } from '../../../../leaderboard/games';
import { BASELINE_SEEDS, missingBaselines, storeBaseline } from '../../../../leaderboard/baselines';
import { serverContext } from '../../../../leaderboard/server';
import { sameSecret } from '../../../../leaderboard/tokens';
import { verifyWithSharedBrowser } from '../../../../leaderboard/verifier-browser';

export const dynamic = 'force-dynamic';

const Body = z.discriminatedUnion('action', [
  /** Sync the games and say which baselines are missing. */
  z.strictObject({ action: z.literal('plan'), games: z.array(z.string()).optional(), agents: z.array(z.enum(BASELINE_AGENTS)).optional() }),
  /** Store one baseline run, after replaying each of its episodes. */
  z.strictObject({ action: z.literal('store'), agent: z.enum(BASELINE_AGENTS), gameId: z.string(), records: z.array(EpisodeRecord).length(BASELINE_SEEDS.length) }),
]);

/**
 * `tsx scripts/seed-db.ts` while this site owns the embedded database (PGlite allows one process
 * per folder): the script runs the baseline agents itself and hands the records over here.
 * Authorised by the admin secret in the data folder; the records are replayed all the same.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const { database } = await serverContext();
    const secret = readAdminSecret();
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!secret || !given || !sameSecret(given, secret)) throw new ApiError('FORBIDDEN', 'Seeding needs the admin secret from the server’s data folder');
    const parsed = Body.safeParse(await request.json().catch(() => null));
    if (!parsed.success) throw new ApiError('INVALID_SUBMISSION', `Invalid body at "${parsed.error.issues[0].path.join('.')}": ${parsed.error.issues[0].message}`);
    const body = parsed.data;
    const catalog = loadCatalog();
    if (body.action === 'plan') {
      await syncGames(database.db, catalog);
      const games = body.games ? catalog.games.filter((g) => body.games!.includes(g.manifest.id)) : catalog.games;
      const { jobs, skipped } = await missingBaselines(database.db, games, body.agents);
      return jsonResponse(200, { jobs: jobs.map((j) => ({ agent: j.agent, gameId: j.game.manifest.id })), skipped });
    }
    const game = catalog.games.find((g) => g.manifest.id === body.gameId);
    if (!game) throw new ApiError('UNKNOWN_GAME', `The server has no game "${body.gameId}"`);
    for (const [i, r] of body.records.entries()) {
      if (r.gameId !== game.manifest.id || r.seed !== BASELINE_SEEDS[i] || r.stepBudget !== game.manifest.stepBudget || r.msPerStep !== game.manifest.msPerStep) {
        throw new ApiError('INVALID_SUBMISSION', `Baseline episode ${i} must be ${game.manifest.id}, seed ${BASELINE_SEEDS[i]}, at the official budget`);
      }
      const v = await verifyWithSharedBrowser(r);
      if (!v.ok) throw new ApiError('VERIFICATION_FAILED', `Baseline episode ${i} does not replay as recorded: ${v.reason}`, { episode: i, firstMismatchStep: v.firstMismatchStep ?? null });
    }
    await storeBaseline(database.db, { agent: body.agent, game }, body.records, { verification: 'server-run', reason: 'Run by the seed script, handed to the server and replayed step by step before storing.' });
    return jsonResponse(201, { stored: true });
  } catch (e) {
    if (e instanceof ApiError) return e.toResponse();
    console.error('POST /api/admin/seed failed:', e);
    return new ApiError('INTERNAL', `Seeding failed: ${e instanceof Error ? e.message : e}`).toResponse();
  }
}
