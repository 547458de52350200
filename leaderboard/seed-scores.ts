/**
 * Each ranked seed's human-normalised score per agent and game: what the IQM and its bootstrap
 * are computed from (uncertainty.ts), with a cell's forfeited seeds at the forfeit score.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { episodes } from '../drizzle/schema';
import { mean } from '../gym/stats';
import type { Db } from './db';
import { normalise, type References } from './scoring';

/** Per (agent, game): each ranked seed's mean score, human-normalised, for the IQM. */
export async function normalisedSeedScores(
  db: Db,
  agentIds: readonly number[],
  gameIds: readonly string[],
  refs: ReadonlyMap<string, References>,
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (agentIds.length === 0 || gameIds.length === 0) return out;
  const eps = await db
    .select({ agentId: episodes.agentId, gameId: episodes.gameId, seed: episodes.seed, score: episodes.score })
    .from(episodes)
    .where(and(inArray(episodes.agentId, [...agentIds]), inArray(episodes.gameId, [...gameIds]), eq(episodes.ranked, true)));
  const bySeed = new Map<string, { key: string; gameId: string; scores: number[] }>();
  for (const e of eps) {
    const key = `${e.agentId}\u0000${e.gameId}`;
    const s = bySeed.get(`${key}\u0000${e.seed}`) ?? { key, gameId: e.gameId, scores: [] };
    s.scores.push(e.score);
    bySeed.set(`${key}\u0000${e.seed}`, s);
  }
  for (const { key, gameId, scores } of bySeed.values()) {
    const ref = refs.get(gameId);
    const n = ref ? normalise(mean(scores), ref).normalised : null;
    if (n !== null) out.set(key, [...(out.get(key) ?? []), n]);
  }
  return out;
}

/** A cell's seed scores with its forfeited seeds at the forfeit score, as the cell's mean counts them (ticket-draws.ts). */
export function withForfeits(scores: number[] | undefined, cell: { forfeitedSeeds: number } | undefined): number[] {
  const s = scores ?? [];
  if (!cell?.forfeitedSeeds || s.length === 0) return s;
  return [...s, ...Array<number>(cell.forfeitedSeeds).fill(Math.min(0, ...s))];
}
