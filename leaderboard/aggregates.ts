/**
 * Keeps the materialised aggregates (agent_game_stats, agent_suite_stats, game_references) in
 * step with the episodes. Callers run these inside the transaction that changed the episodes,
 * so readers never see one without the other. All arithmetic is leaderboard/scoring.ts's.
 */
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { agentGameStats, agentSuiteStats, agents, episodes, gameReferences, games, humanEpisodes, humanPlayers, tickets } from '../drizzle/schema';
import { serverPlayed } from './play-mode';
import { normalisedSeedScores, withForfeits } from './seed-scores';
import { iqmWithInterval } from './uncertainty';
import type { Db } from './db';
import { agentsOfToken, forfeitScore, ticketDraws } from './ticket-draws';
import { ALL_GAMES_SUITE, cellStats, humanReference, MIN_SEEDS, normalise, suiteSummary, type References } from './scoring';

/** The built-in random agent: its mean is the random reference of the ALE normalisation. */
export const RANDOM_AGENT = 'random';
/** The baselines the server runs itself; ppo-generic is the generic agent's trained policies (gym/agents/generic-policy.ts). */
export const BASELINE_AGENTS = ['random', 'scripted', 'ppo-generic'] as const;

/** Rows per INSERT: far below PostgreSQL's 65 535 parameters whatever the table. */
const CHUNK = 1000;

function chunks<T>(xs: readonly T[], n = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

export async function loadReferences(db: Db, gameIds?: readonly string[]): Promise<Map<string, References>> {
  const rows = await db
    .select({ gameId: gameReferences.gameId, kind: gameReferences.kind, score: gameReferences.score })
    .from(gameReferences)
    .where(gameIds ? inArray(gameReferences.gameId, [...gameIds]) : undefined);
  const refs = new Map<string, References>();
  for (const r of rows) {
    const ref = refs.get(r.gameId) ?? { human: NaN, random: null };
    if (r.kind === 'human') ref.human = r.score;
    else ref.random = r.score;
    refs.set(r.gameId, ref);
  }
  return refs;
}

type StatsRow = typeof agentGameStats.$inferInsert;

/** Recomputes agent × game cells from the ranked episodes, for the given agents and games. */
export async function refreshCells(db: Db, agentIds: readonly number[], gameIds: readonly string[]): Promise<void> {
  if (agentIds.length === 0 || gameIds.length === 0) return;
  const refs = await loadReferences(db, gameIds);
  for (const ids of chunks(agentIds, 200)) {
    const eps = await db
      .select({
        agentId: episodes.agentId,
        gameId: episodes.gameId,
        seed: episodes.seed,
        score: episodes.score,
        verification: episodes.verification,
        ticketId: episodes.ticketId,
        ticketMode: tickets.mode,
        ticketPurpose: tickets.purpose,
      })
      .from(episodes)
      .leftJoin(tickets, eq(tickets.id, episodes.ticketId))
      .where(and(inArray(episodes.agentId, ids), inArray(episodes.gameId, [...gameIds]), eq(episodes.ranked, true)));
    const groups = new Map<string, typeof eps>();
    for (const e of eps) {
      const key = `${e.agentId}\u0000${e.gameId}`;
      const g = groups.get(key);
      if (g) g.push(e);
      else groups.set(key, [e]);
    }
    const draws = await forfeitsOf(db, ids, gameIds);
    const rows: StatsRow[] = [];
    for (const group of groups.values()) {
      const { agentId, gameId } = group[0];
      // Seeds drawn and not turned into ranked play count, at the forfeit score (ticket-draws.ts).
      const forfeited = draws.get(`${agentId}\u0000${gameId}`) ?? [];
      const score = forfeitScore(group.map((e) => e.score));
      const all = cellStats([...group, ...forfeited.map((seed) => ({ seed, score }))])!;
      const played = cellStats(group)!;
      const s = { ...all, episodes: played.episodes, bestScore: played.bestScore };
      const ref = refs.get(gameId);
      const n = ref ? normalise(s.meanScore, ref) : { normalised: null, aleNormalised: null };
      rows.push({
        agentId,
        gameId,
        ...s,
        ...n,
        replayVerified: group.every((e) => e.verification === 'verified'),
        ticketed: group.every((e) => e.ticketId !== null),
        serverPlayed: group.every((e) => serverPlayed(e.ticketMode && e.ticketPurpose ? { mode: e.ticketMode, purpose: e.ticketPurpose } : null)),
        forfeitedSeeds: forfeited.length,
        updatedAt: new Date(),
      });
    }
    await db.delete(agentGameStats).where(and(inArray(agentGameStats.agentId, ids), inArray(agentGameStats.gameId, [...gameIds])));
    for (const part of chunks(rows)) await db.insert(agentGameStats).values(part);
  }
}

/** Forfeited seeds per agent and game (key `agentId\0gameId`), for the agents that have a token. */
async function forfeitsOf(db: Db, agentIds: readonly number[], gameIds: readonly string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  // The server's own agents draw no tickets to shop with: only agents with a token are looked at.
  const withToken = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(inArray(agents.id, [...agentIds]), isNotNull(agents.tokenId)));
  for (const { id: agentId } of withToken) {
    for (const d of await ticketDraws(db, agentId, gameIds)) if (d.forfeitedSeeds.length) out.set(`${agentId}\u0000${d.gameId}`, d.forfeitedSeeds);
  }
  return out;
}

/**
 * Recomputes everything a token's tickets feed: the cells of all its agents on these games and
 * their suites. Called when it draws a ticket and when a run on one is stored (ticket-draws.ts).
 */
export async function refreshTokenAgents(db: Db, tokenId: number | null, gameIds: readonly string[]): Promise<void> {
  const ids = await agentsOfToken(db, tokenId);
  if (ids.length === 0) return;
  await refreshCells(db, ids, gameIds);
  await refreshSuites(db, ids);
}

/** Re-normalises every cell of these games against their current references. */
async function renormaliseGames(db: Db, gameIds: readonly string[]): Promise<number[]> {
  const refs = await loadReferences(db, gameIds);
  const rows = await db
    .select()
    .from(agentGameStats)
    .where(inArray(agentGameStats.gameId, [...gameIds]));
  const updated = rows.map((r) => {
    const ref = refs.get(r.gameId);
    return { ...r, ...(ref ? normalise(r.meanScore, ref) : { normalised: null, aleNormalised: null }), updatedAt: new Date() };
  });
  await db.delete(agentGameStats).where(inArray(agentGameStats.gameId, [...gameIds]));
  for (const part of chunks(updated)) await db.insert(agentGameStats).values(part);
  return [...new Set(rows.map((r) => r.agentId))];
}

/** Suites of the active games, with the pseudo-suite "all". */
export async function activeSuites(db: Db): Promise<Map<string, string[]>> {
  const rows = await db.select({ id: games.id, suites: games.suites }).from(games).where(eq(games.active, true)).orderBy(games.id);
  const suites = new Map<string, string[]>([[ALL_GAMES_SUITE, rows.map((r) => r.id)]]);
  for (const r of rows) for (const s of r.suites) suites.set(s, [...(suites.get(s) ?? []), r.id]);
  return suites;
}

/** Recomputes the suite rows of the given agents (all agents when omitted). */
export async function refreshSuites(db: Db, agentIds?: readonly number[]): Promise<void> {
  const suites = await activeSuites(db);
  const ids = agentIds ?? (await db.select({ id: agents.id }).from(agents)).map((a) => a.id);
  const allGames = suites.get(ALL_GAMES_SUITE) ?? [];
  let refs: Map<string, References> | undefined;
  for (const part of chunks(ids, 500)) {
    const cells = await db
      .select({
        agentId: agentGameStats.agentId,
        gameId: agentGameStats.gameId,
        seeds: agentGameStats.seeds,
        normalised: agentGameStats.normalised,
        aleNormalised: agentGameStats.aleNormalised,
        serverPlayed: agentGameStats.serverPlayed,
        forfeitedSeeds: agentGameStats.forfeitedSeeds,
      })
      .from(agentGameStats)
      .where(inArray(agentGameStats.agentId, part));
    const byAgent = new Map<number, typeof cells>();
    for (const c of cells) byAgent.set(c.agentId, [...(byAgent.get(c.agentId) ?? []), c]);
    const summaries = [...byAgent].flatMap(([agentId, agentCells]) => {
      const played = new Set(agentCells.map((c) => c.gameId));
      return [...suites]
        .filter(([, gameIds]) => gameIds.some((g) => played.has(g)))
        .map(([suite, gameIds]) => ({ agentId, agentCells, suite, gameIds, s: suiteSummary(gameIds, agentCells) }));
    });
    // The IQM's inputs (each ranked seed's normalised score), only for the agents with a complete entry: only those get one.
    const iqmAgents = [...new Set(summaries.filter((x) => x.s.complete).map((x) => x.agentId))];
    let seedScores = new Map<string, number[]>();
    if (iqmAgents.length) {
      refs ??= await loadReferences(db, allGames);
      seedScores = await normalisedSeedScores(db, iqmAgents, allGames, refs);
    }
    const rows = summaries.map(({ agentId, agentCells, suite, gameIds, s }): typeof agentSuiteStats.$inferInsert => {
      const iqm = s.complete
        ? iqmWithInterval(
            gameIds.map((g) =>
              withForfeits(
                seedScores.get(`${agentId}\u0000${g}`),
                agentCells.find((c) => c.gameId === g),
              ),
            ),
          )
        : null;
      return {
        agentId,
        suite,
        gamesCounted: s.gamesCounted,
        suiteGames: s.suiteGames,
        complete: s.complete,
        meanNormalised: s.meanNormalised,
        meanAleNormalised: s.meanAleNormalised,
        serverPlayed: agentCells.filter((c) => gameIds.includes(c.gameId)).every((c) => c.serverPlayed),
        iqm: iqm?.value ?? null,
        iqmLow: iqm?.lo ?? null,
        iqmHigh: iqm?.hi ?? null,
        updatedAt: new Date(),
      };
    });
    await db.delete(agentSuiteStats).where(inArray(agentSuiteStats.agentId, part));
    for (const c of chunks(rows)) await db.insert(agentSuiteStats).values(c);
  }
}

/** Recomputes the suite rows of agents with a complete entry but no IQM stored (rows from before the 0010 migration). */
export async function refreshMissingIqm(db: Db): Promise<void> {
  const missing = await db
    .selectDistinct({ id: agentSuiteStats.agentId })
    .from(agentSuiteStats)
    .where(and(eq(agentSuiteStats.complete, true), isNull(agentSuiteStats.iqm)));
  if (missing.length)
    await refreshSuites(
      db,
      missing.map((r) => r.id),
    );
}

/** Stores a game's reference of one kind, replacing the one stored. */
function upsertReference(db: Db, row: typeof gameReferences.$inferInsert) {
  return db
    .insert(gameReferences)
    .values(row)
    .onConflictDoUpdate({ target: [gameReferences.gameId, gameReferences.kind], set: row });
}

/**
 * Recomputes the human and random references of these games (from accepted players' verified
 * play and the random baseline), then every score normalised against them.
 */
export async function refreshReferences(db: Db, gameIds: readonly string[]): Promise<void> {
  if (gameIds.length === 0) return;
  const gameRows = await db
    .select()
    .from(games)
    .where(inArray(games.id, [...gameIds]));
  const [randomAgent] = await db.select({ id: agents.id }).from(agents).where(eq(agents.name, RANDOM_AGENT));
  for (const g of gameRows) {
    const human = await db
      .select({ seed: humanEpisodes.seed, score: humanEpisodes.score, stepBudget: humanEpisodes.stepBudget, player: humanPlayers.name })
      .from(humanEpisodes)
      .innerJoin(humanPlayers, eq(humanPlayers.id, humanEpisodes.playerId))
      .where(
        and(
          eq(humanPlayers.status, 'accepted'),
          eq(humanEpisodes.gameId, g.id),
          eq(humanEpisodes.gameVersion, g.version),
          eq(humanEpisodes.msPerStep, g.msPerStep),
          eq(humanEpisodes.verification, 'verified'),
          eq(humanEpisodes.ranked, true),
        ),
      );
    const ref = humanReference(g.manifestHumanReference, g.stepBudget, human);
    const humanRow = {
      gameId: g.id,
      kind: 'human' as const,
      score: ref.score,
      status: ref.status,
      provenance: ref.provenance,
      stepBudget: ref.stepBudget,
      episodes: ref.episodes,
      updatedAt: new Date(),
    };
    await upsertReference(db, humanRow);

    const [random] = randomAgent
      ? await db
          .select()
          .from(agentGameStats)
          .where(and(eq(agentGameStats.agentId, randomAgent.id), eq(agentGameStats.gameId, g.id)))
      : [];
    if (random && random.seeds >= MIN_SEEDS) {
      const randomRow = {
        gameId: g.id,
        kind: 'random' as const,
        score: random.meanScore,
        status: 'verified' as const,
        provenance: `Mean of the built-in random agent over ${random.seeds} ticketed seeds at ${g.stepBudget} steps, replayed by this server.`,
        stepBudget: g.stepBudget,
        episodes: random.episodes,
        updatedAt: new Date(),
      };
      await upsertReference(db, randomRow);
    } else {
      await db.delete(gameReferences).where(and(eq(gameReferences.gameId, g.id), eq(gameReferences.kind, 'random')));
    }
  }
  const affected = await renormaliseGames(db, gameIds);
  await refreshSuites(db, affected);
}
