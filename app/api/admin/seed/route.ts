import { z } from 'zod';
import { loadCatalog } from '../../../../gym/catalog';
import { EpisodeRecord } from '../../../../gym/schema';
import { readAdminSecret } from '../../../../leaderboard/admin-secret';
import { BASELINE_AGENTS } from '../../../../leaderboard/aggregates';
import { ApiError, jsonResponse } from '../../../../leaderboard/api-error';
import { baselineTicket, missingBaselines, submitBaseline } from '../../../../leaderboard/baselines';
import { syncGames } from '../../../../leaderboard/games';
import { serverContext } from '../../../../leaderboard/server';
import { LearningCurve, MAX_EPISODES_PER_RUN, TrainingSettings } from '../../../../leaderboard/submission-schema';
import { sameSecret } from '../../../../leaderboard/tokens';

export const dynamic = 'force-dynamic';

const Body = z.discriminatedUnion('action', [
  /** Sync the games and say which baselines are missing. */
  z.strictObject({ action: z.literal('plan'), games: z.array(z.string()).optional(), agents: z.array(z.enum(BASELINE_AGENTS)).optional() }),
  /** A server-owned ticket for one baseline: the seeds to run it on. */
  z.strictObject({ action: z.literal('ticket'), agent: z.enum(BASELINE_AGENTS), gameId: z.string() }),
  /** Submit one baseline run on its ticket: queued and replayed like any submission (202 and a status URL). */
  z.strictObject({
    action: z.literal('store'),
    agent: z.enum(BASELINE_AGENTS),
    gameId: z.string(),
    ticket: z.string(),
    records: z.array(EpisodeRecord).min(1).max(MAX_EPISODES_PER_RUN),
    /** How a trained baseline (ppo-generic) was trained, read by the seed script off its committed policy. */
    trained: z.strictObject({ training: TrainingSettings, learningCurve: LearningCurve }).optional(),
  }),
]);

/**
 * `tsx scripts/seed-db.ts` while this site owns the embedded database (PGlite allows one process
 * per folder): the script runs the baseline agents itself on tickets drawn here and hands the
 * records over, and they take the way in every run takes (intake, queue, replay, store).
 * Authorised by the admin secret in the data folder.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const { database, intake } = await serverContext();
    const secret = readAdminSecret();
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!secret || !given || !sameSecret(given, secret)) throw new ApiError('FORBIDDEN', 'Seeding needs the admin secret from the server’s data folder');
    const parsed = Body.safeParse(await request.json().catch(() => null));
    if (!parsed.success)
      throw new ApiError('INVALID_SUBMISSION', `Invalid body at "${parsed.error.issues[0].path.join('.')}": ${parsed.error.issues[0].message}`);
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
    if (body.action === 'ticket') return jsonResponse(201, { ticket: await baselineTicket(database.db, catalog, { agent: body.agent, game }) });
    const status = await submitBaseline(intake, { agent: body.agent, game }, body.ticket, body.records, body.trained);
    return jsonResponse(202, status, { location: status.submission.statusUrl });
  } catch (e) {
    if (e instanceof ApiError) return e.toResponse();
    console.error('POST /api/admin/seed failed:', e);
    return new ApiError('INTERNAL', `Seeding failed: ${e instanceof Error ? e.message : e}`).toResponse();
  }
}
