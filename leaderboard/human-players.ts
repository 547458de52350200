/**
 * The people behind the human references: a visitor of /play names themself and is a candidate
 * until an admin accepts them; names an admin token submitted play for are accepted. Only
 * accepted players' episodes make a reference (scoring.ts, humanReference).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { humanEpisodes, humanPlayers } from '../drizzle/schema';
import { canonicalAgentName } from './agent-names';
import { refreshReferences } from './aggregates';
import { ApiError } from './api-error';
import type { Db } from './db';

export type HumanPlayerRow = typeof humanPlayers.$inferSelect;
export type PlayerStatus = HumanPlayerRow['status'];

const KEY_PREFIX = 'hpk_';
const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** The player of this name or a look-alike of it (the agent names' canonical form), if any. */
async function playerNamed(db: Db, name: string): Promise<HumanPlayerRow | null> {
  const [row] = await db
    .select()
    .from(humanPlayers)
    .where(eq(humanPlayers.canonicalName, canonicalAgentName(name)));
  return row ?? null;
}

/** A visitor's registered player, when the key is the one it was registered with. */
export async function knownVisitorPlayer(db: Db, name: string, key: string | undefined): Promise<HumanPlayerRow | null> {
  const known = await playerNamed(db, name);
  if (!known) return null;
  if (known.keyHash === null || key === undefined || keyHash(key) !== known.keyHash)
    throw new ApiError(
      'PLAYER_NAME_TAKEN',
      `The player name "${name}" is taken${known.name === name ? '' : ` (as "${known.name}")`}; choose another, or play from the browser that registered it`,
      {
        player: known.name,
      },
    );
  return known;
}

/**
 * The player a visitor plays as: a new name is registered as a candidate and its key is returned
 * (once: the browser keeps it); a known name needs the key it was registered with. Names an admin
 * submitted for have no key and are refused here.
 */
export async function visitorPlayer(db: Db, name: string, key: string | undefined): Promise<{ player: HumanPlayerRow; newKey: string | null }> {
  const known = await knownVisitorPlayer(db, name, key);
  if (known) return { player: known, newKey: null };
  const newKey = KEY_PREFIX + randomBytes(24).toString('base64url');
  const [player] = await db
    .insert(humanPlayers)
    .values({ name, canonicalName: canonicalAgentName(name), keyHash: keyHash(newKey), status: 'candidate' })
    .onConflictDoNothing({ target: humanPlayers.canonicalName })
    .returning();
  // Registered by a concurrent request meanwhile: that request's browser holds the key.
  if (!player) throw new ApiError('PLAYER_NAME_TAKEN', `The player name "${name}" was just taken; choose another`, { player: name });
  return { player, newKey };
}

/**
 * The player an ingested human episode belongs to. Play an admin token submitted makes (or
 * keeps) its player accepted: the admin vouches for it. A visitor's run (no token) plays under
 * the name its ticket was issued to, which exists.
 */
export async function playerForRun(db: Db, name: string, byAdmin: boolean): Promise<HumanPlayerRow> {
  if (byAdmin) {
    const [row] = await db
      .insert(humanPlayers)
      .values({ name, canonicalName: canonicalAgentName(name), status: 'accepted', decidedAt: new Date() })
      .onConflictDoUpdate({ target: humanPlayers.canonicalName, set: { status: 'accepted', decidedAt: sql`coalesce(${humanPlayers.decidedAt}, now())` } })
      .returning();
    return row;
  }
  const row = await playerNamed(db, name);
  if (!row) throw new ApiError('PLAYER_NOT_FOUND', `No player "${name}": a visitor's run plays under the name its ticket was issued to`, { player: name });
  return row;
}

export interface PlayerSummary {
  name: string;
  status: PlayerStatus;
  /** Registered by a visitor of /play (false: named by an admin's submission). */
  visitor: boolean;
  createdAt: string;
  decidedAt: string | null;
  /** Verified, ticketed episodes per game: what accepting the player would add to each reference. */
  games: { gameId: string; episodes: number; meanScore: number }[];
}

/** Every player (or the one named), candidates first, with their ranked (ticketed, complete) episodes per game. */
export async function listPlayers(db: Db, only?: { id: number }): Promise<PlayerSummary[]> {
  const players = await db
    .select()
    .from(humanPlayers)
    .where(only ? eq(humanPlayers.id, only.id) : undefined);
  const perGame = await db
    .select({
      playerId: humanEpisodes.playerId,
      gameId: humanEpisodes.gameId,
      episodes: count(),
      meanScore: sql<number>`avg(${humanEpisodes.score})::float8`,
    })
    .from(humanEpisodes)
    .where(and(eq(humanEpisodes.ranked, true), only ? eq(humanEpisodes.playerId, only.id) : undefined))
    .groupBy(humanEpisodes.playerId, humanEpisodes.gameId);
  const order: Record<PlayerStatus, number> = { candidate: 0, accepted: 1, rejected: 2 };
  return players
    .sort((a, b) => order[a.status] - order[b.status] || a.canonicalName.localeCompare(b.canonicalName))
    .map((p) => ({
      name: p.name,
      status: p.status,
      visitor: p.keyHash !== null,
      createdAt: p.createdAt.toISOString(),
      decidedAt: p.decidedAt?.toISOString() ?? null,
      games: perGame
        .filter((g) => g.playerId === p.id)
        .map((g) => ({ gameId: g.gameId, episodes: Number(g.episodes), meanScore: Number(g.meanScore) }))
        .sort((a, b) => a.gameId.localeCompare(b.gameId)),
    }));
}

/** An admin's decision on a player; the references of every game they played follow it. */
export async function decidePlayer(db: Db, name: string, status: 'accepted' | 'rejected'): Promise<PlayerSummary> {
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(humanPlayers)
      .set({ status, decidedAt: new Date() })
      .where(eq(humanPlayers.canonicalName, canonicalAgentName(name)))
      .returning();
    if (!row) throw new ApiError('PLAYER_NOT_FOUND', `No player "${name}"`, { player: name });
    const played = await tx.selectDistinct({ gameId: humanEpisodes.gameId }).from(humanEpisodes).where(eq(humanEpisodes.playerId, row.id));
    await refreshReferences(
      tx,
      played.map((g) => g.gameId),
    );
    return row.id;
  });
  const [summary] = await listPlayers(db, { id });
  return summary;
}
