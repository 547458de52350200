/** A live ticket's played episodes in the database (drizzle/schema.ts `live_episodes`). */
import { asc, eq } from 'drizzle-orm';
import { liveEpisodes } from '../drizzle/schema';
import type { EpisodeRecord } from '../gym/schema';
import type { Db } from './db';

/** Positions of the ticket's episodes that have ended (complete or truncated). */
export async function endedPositions(db: Db, ticketId: string): Promise<Set<number>> {
  const rows = await db.select({ position: liveEpisodes.position }).from(liveEpisodes).where(eq(liveEpisodes.ticketId, ticketId));
  return new Set(rows.map((r) => r.position));
}

/** Stores an ended episode once: a second end reported for the same position keeps the first. */
export async function storeLiveEpisode(
  db: Db,
  ticketId: string,
  position: number,
  record: EpisodeRecord,
  cause?: { code: string; message: string },
): Promise<void> {
  await db
    .insert(liveEpisodes)
    .values({ ticketId, position, gameId: record.gameId, record, cause: cause ?? null })
    .onConflictDoNothing();
}

/** The ticket's ended episodes, in ticket order; `complete`: only those that ended in the game (terminated or at the step budget), not cut off. */
export async function liveRecords(db: Db, ticketId: string, opts: { complete?: boolean } = {}): Promise<EpisodeRecord[]> {
  const rows = await db
    .select({ record: liveEpisodes.record, cause: liveEpisodes.cause })
    .from(liveEpisodes)
    .where(eq(liveEpisodes.ticketId, ticketId))
    .orderBy(asc(liveEpisodes.position));
  return rows.filter((r) => !opts.complete || r.cause === null).map((r) => r.record);
}
