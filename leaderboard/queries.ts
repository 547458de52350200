/**
 * What the pages read. Every query is bounded (a page of agents, the top episodes, a capped
 * sample of scores) and served by an index or the materialised aggregates, so a page costs the
 * same with ten agents or ten thousand.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import {
  agentGameStats,
  agentSuiteStats,
  agents,
  episodes,
  gameReferences,
  games,
  humanEpisodes,
  runs,
  type ClaimedEpisodeColumns,
  type LearningCurvePointColumns,
  type ReplayIdentityColumns,
  type RunSettingsColumns,
  type TrainingColumns,
} from '../drizzle/schema';
import type { Db } from './db';
import { activeSuites } from './aggregates';
import { ticketDraws } from './ticket-draws';
import type { PlayView } from './play-mode';
import { ALL_GAMES_SUITE } from './scoring';
import { type Estimate, type Interval, meanInterval, overlap } from './uncertainty';

export interface GameColumn {
  id: string;
  title: string;
  stepBudget: number;
  human: { score: number; status: 'provisional' | 'verified' } | null;
  random: number | null;
}

export interface Cell {
  episodes: number;
  seeds: number;
  meanScore: number;
  stdScore: number;
  bestScore: number;
  normalised: number | null;
  aleNormalised: number | null;
  /** Every counted episode was replayed by the server. */
  replayVerified: boolean;
  /** Every counted episode came from a run on a server-issued ticket. */
  ticketed: boolean;
  /** Seeds of drawn tickets without ranked play, counted in seeds and the mean at the forfeit score (ticket-draws.ts). */
  forfeitedSeeds: number;
  /** Every counted episode was played by the server on seeds its player never saw (play-mode.ts). */
  serverPlayed: boolean;
  /** 95 % t-interval of the raw mean over seeds (uncertainty.ts); null below 2 seeds. */
  ci95: Interval | null;
}

/** What a page shows of an agent's tickets on one game (ticket-draws.ts). */
export interface TicketDrawSummary {
  gameId: string;
  drawn: number;
  submitted: number;
  ranked: number;
  forfeitedSeeds: number;
}

async function drawSummaries(db: Db, agentId: number, gameIds?: readonly string[]): Promise<TicketDrawSummary[]> {
  return (await ticketDraws(db, agentId, gameIds)).map((d) => ({ ...d, forfeitedSeeds: d.forfeitedSeeds.length }));
}

export interface LeaderboardRow {
  rank: number;
  agent: { id: number; name: string; kind: 'baseline' | 'submitted'; settings: RunSettingsColumns | null };
  gamesCounted: number;
  suiteGames: number;
  complete: boolean;
  meanNormalised: number | null;
  meanAleNormalised: number | null;
  /** Every cell of the suite is server-played: no episode of it came from a known-seed ticket. */
  serverPlayed: boolean;
  /**
   * The interquartile mean of the human-normalised scores of every (game, seed), forfeited seeds
   * included, with its 95 % stratified-bootstrap interval (uncertainty.ts); null for an incomplete agent.
   */
  iqm: Estimate | null;
  /** On the board sorted by score: this entry's interval overlaps the one above it, so the two are not told apart. */
  tiedWithAbove: boolean;
  cells: Record<string, Cell>;
}

export const SORT_KEYS = ['score', 'ale', 'name', 'games'] as const;
export type SortKey = (typeof SORT_KEYS)[number] | `game:${string}`;

export interface LeaderboardQuery {
  suite?: string;
  sort?: SortKey;
  dir?: 'asc' | 'desc';
  page?: number;
  pageSize?: number;
  /** 'server' (default): only server-played entries; 'any': known-seed tickets' too. */
  play?: PlayView;
}

export interface Leaderboard {
  suites: string[];
  suite: string;
  play: PlayView;
  games: GameColumn[];
  sort: SortKey;
  dir: 'asc' | 'desc';
  page: number;
  pageSize: number;
  total: number;
  rows: LeaderboardRow[];
}

async function gameColumns(db: Db, ids: readonly string[]): Promise<GameColumn[]> {
  if (ids.length === 0) return [];
  const [rows, refs] = await Promise.all([
    db
      .select({ id: games.id, title: games.title, stepBudget: games.stepBudget })
      .from(games)
      .where(inArray(games.id, [...ids]))
      .orderBy(games.id),
    db
      .select()
      .from(gameReferences)
      .where(inArray(gameReferences.gameId, [...ids])),
  ]);
  return rows.map((g) => {
    const human = refs.find((r) => r.gameId === g.id && r.kind === 'human');
    const random = refs.find((r) => r.gameId === g.id && r.kind === 'random');
    return { ...g, human: human ? { score: human.score, status: human.status } : null, random: random?.score ?? null };
  });
}

const cellColumns = {
  agentId: agentGameStats.agentId,
  gameId: agentGameStats.gameId,
  episodes: agentGameStats.episodes,
  seeds: agentGameStats.seeds,
  meanScore: agentGameStats.meanScore,
  stdScore: agentGameStats.stdScore,
  bestScore: agentGameStats.bestScore,
  normalised: agentGameStats.normalised,
  aleNormalised: agentGameStats.aleNormalised,
  replayVerified: agentGameStats.replayVerified,
  ticketed: agentGameStats.ticketed,
  forfeitedSeeds: agentGameStats.forfeitedSeeds,
  serverPlayed: agentGameStats.serverPlayed,
};

/** An agent's standing on a suite, as the leaderboard and the agent's page show it. */
const suiteStatColumns = {
  gamesCounted: agentSuiteStats.gamesCounted,
  suiteGames: agentSuiteStats.suiteGames,
  complete: agentSuiteStats.complete,
  meanNormalised: agentSuiteStats.meanNormalised,
  meanAleNormalised: agentSuiteStats.meanAleNormalised,
  serverPlayed: agentSuiteStats.serverPlayed,
  iqm: agentSuiteStats.iqm,
  iqmLow: agentSuiteStats.iqmLow,
  iqmHigh: agentSuiteStats.iqmHigh,
};

export async function loadLeaderboard(db: Db, q: LeaderboardQuery = {}): Promise<Leaderboard> {
  const suiteMap = await activeSuites(db);
  const suites = [...suiteMap.keys()].sort((a, b) => (a === ALL_GAMES_SUITE ? 1 : b === ALL_GAMES_SUITE ? -1 : a.localeCompare(b)));
  const suite = q.suite && suiteMap.has(q.suite) ? q.suite : suiteMap.has('core') ? 'core' : ALL_GAMES_SUITE;
  const gameIds = suiteMap.get(suite) ?? [];
  const pageSize = Math.min(Math.max(q.pageSize ?? 50, 1), 200);
  const page = Math.max(q.page ?? 1, 1);
  let sort: SortKey = q.sort ?? 'score';
  if (sort.startsWith('game:') && !gameIds.includes(sort.slice(5))) sort = 'score';
  const dir = q.dir ?? (sort === 'name' ? 'asc' : 'desc');
  const play: PlayView = q.play ?? 'server';
  const inView = and(eq(agentSuiteStats.suite, suite), play === 'server' ? eq(agentSuiteStats.serverPlayed, true) : undefined);
  const order = (x: SQL | typeof agents.name) => (dir === 'asc' ? sql`${x} asc nulls last` : sql`${x} desc nulls last`);

  const sortGame = sort.startsWith('game:') ? sort.slice(5) : null;
  const sortCell = sortGame
    ? sql`(select ${agentGameStats.normalised} from ${agentGameStats} where ${agentGameStats.agentId} = ${agentSuiteStats.agentId} and ${agentGameStats.gameId} = ${sortGame})`
    : null;
  const orderBy: SQL[] =
    sort === 'name'
      ? [order(agents.name)]
      : sort === 'games'
        ? [order(sql`${agentSuiteStats.gamesCounted}`), asc(agents.name)]
        : sortCell
          ? [order(sortCell), asc(agents.name)]
          : // Complete agents first (only they have a suite mean), then by how much they played.
            [
              desc(agentSuiteStats.complete),
              order(sql`${sort === 'ale' ? agentSuiteStats.meanAleNormalised : agentSuiteStats.meanNormalised}`),
              desc(agentSuiteStats.gamesCounted),
              asc(agents.name),
            ];

  const [[{ total }], ranked, columns] = await Promise.all([
    db.select({ total: count() }).from(agentSuiteStats).where(inView),
    db
      .select({
        id: agents.id,
        name: agents.name,
        kind: agents.kind,
        settings: agents.settings,
        ...suiteStatColumns,
      })
      .from(agentSuiteStats)
      .innerJoin(agents, eq(agents.id, agentSuiteStats.agentId))
      .where(inView)
      .orderBy(...orderBy)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    gameColumns(db, gameIds),
  ]);
  const ids = ranked.map((r) => r.id);
  const cells =
    ids.length && gameIds.length
      ? await db
          .select(cellColumns)
          .from(agentGameStats)
          .where(and(inArray(agentGameStats.agentId, ids), inArray(agentGameStats.gameId, gameIds)))
      : [];
  const rows: LeaderboardRow[] = ranked.map((r, i) => {
    const own = cells.filter((c) => c.agentId === r.id);
    return {
      rank: (page - 1) * pageSize + i + 1,
      agent: { id: r.id, name: r.name, kind: r.kind, settings: r.settings },
      gamesCounted: r.gamesCounted,
      suiteGames: r.suiteGames,
      complete: r.complete,
      meanNormalised: r.meanNormalised,
      meanAleNormalised: r.meanAleNormalised,
      serverPlayed: r.serverPlayed,
      iqm: r.complete && r.iqm !== null && r.iqmLow !== null && r.iqmHigh !== null ? { value: r.iqm, lo: r.iqmLow, hi: r.iqmHigh } : null,
      tiedWithAbove: false,
      cells: Object.fromEntries(own.map(({ agentId: _a, gameId, ...c }) => [gameId, { ...c, ci95: meanInterval(c.meanScore, c.stdScore, c.seeds) }])),
    };
  });
  if (sort === 'score')
    for (let i = 1; i < rows.length; i++) {
      const [above, row] = [rows[i - 1].iqm, rows[i].iqm];
      rows[i].tiedWithAbove = above !== null && row !== null && overlap(above, row);
    }
  return { suites, suite, play, games: columns, sort, dir, page, pageSize, total, rows };
}

export interface RunSummary extends RunSettingsColumns {
  id: string;
  kind: string;
  gameIds: string[];
  episodeCount: number;
  createdAt: Date;
  /** The evaluation ticket the run played; null: self-seeded. */
  ticketId: string | null;
  /** Why the run as a whole is not ranked. */
  unrankedReason: string | null;
}

const runSummaryColumns = {
  id: runs.id,
  kind: runs.kind,
  gameIds: runs.gameIds,
  episodeCount: runs.episodeCount,
  createdAt: runs.createdAt,
  observation: runs.observation,
  actionSpace: runs.actionSpace,
  stepBudget: runs.stepBudget,
  msPerStep: runs.msPerStep,
  official: runs.official,
  harness: runs.harness,
  model: runs.model,
  codeVersion: runs.codeVersion,
  gameSpecific: runs.gameSpecific,
  ticketId: runs.ticketId,
  unrankedReason: runs.unrankedReason,
};

export interface AgentDetail {
  agent: { id: number; name: string; kind: 'baseline' | 'submitted'; settings: RunSettingsColumns | null; createdAt: Date };
  suites: { suite: string; gamesCounted: number; suiteGames: number; complete: boolean; meanNormalised: number | null; meanAleNormalised: number | null }[];
  games: (GameColumn & { cell: Cell })[];
  runs: RunSummary[];
  /** The tickets its token drew per game, how many it submitted and how many ranked. */
  tickets: TicketDrawSummary[];
  /** The agent's latest run that sent a learning curve (a `train --submit` run), as claimed; null if none did. */
  training: { runId: string; createdAt: Date; learningCurve: LearningCurvePointColumns[]; training: TrainingColumns | null } | null;
}

export async function loadAgent(db: Db, name: string): Promise<AgentDetail | null> {
  const [agent] = await db
    .select({ id: agents.id, name: agents.name, kind: agents.kind, settings: agents.settings, createdAt: agents.createdAt })
    .from(agents)
    .where(eq(agents.name, name));
  if (!agent) return null;
  const [suites, cells, runRows, [trained], draws] = await Promise.all([
    db
      .select({
        suite: agentSuiteStats.suite,
        ...suiteStatColumns,
      })
      .from(agentSuiteStats)
      .where(eq(agentSuiteStats.agentId, agent.id))
      .orderBy(agentSuiteStats.suite),
    db.select(cellColumns).from(agentGameStats).where(eq(agentGameStats.agentId, agent.id)),
    db.select(runSummaryColumns).from(runs).where(eq(runs.agentId, agent.id)).orderBy(desc(runs.createdAt)).limit(100),
    db
      .select({ runId: runs.id, createdAt: runs.createdAt, learningCurve: runs.learningCurve, training: runs.training })
      .from(runs)
      .where(and(eq(runs.agentId, agent.id), isNotNull(runs.learningCurve)))
      .orderBy(desc(runs.createdAt))
      .limit(1),
    drawSummaries(db, agent.id),
  ]);
  const columns = await gameColumns(
    db,
    cells.map((c) => c.gameId),
  );
  return {
    agent,
    suites,
    games: columns.map((g) => {
      const c = cells.find((x) => x.gameId === g.id)!;
      return { ...g, cell: { ...c, ci95: meanInterval(c.meanScore, c.stdScore, c.seeds) } };
    }),
    runs: runRows,
    tickets: draws,
    training: trained?.learningCurve ? { ...trained, learningCurve: trained.learningCurve } : null,
  };
}

export interface EpisodeRow {
  id: number;
  gameId: string;
  seed: number;
  score: number;
  length: number;
  terminated: boolean;
  truncated: boolean;
  ranked: boolean;
  /** Why it does not count (null when it does). */
  unrankedReason: string | null;
  ticketed: boolean;
  verification: string;
  verificationReason: string;
  /** What the replay ran on (null for rows stored before replays were recorded). */
  replay: ReplayIdentityColumns | null;
  /** What the client claimed and the replay cannot check. */
  claimed: ClaimedEpisodeColumns | null;
}

export interface RunDetail {
  run: RunSummary & { clientId: string; learningCurve: LearningCurvePointColumns[] | null; training: TrainingColumns | null; player: string | null };
  agent: { name: string; kind: string } | null;
  episodes: EpisodeRow[];
  /** The tickets the agent's token drew for the run's games, how many it submitted and how many ranked (none for human play and baselines). */
  tickets: TicketDrawSummary[];
}

/** An `EpisodeRow` of an agent's episode: what a run's page and a game's top list show of it. */
const episodeRowColumns = {
  id: episodes.id,
  gameId: episodes.gameId,
  seed: episodes.seed,
  score: episodes.score,
  length: episodes.length,
  terminated: episodes.terminated,
  truncated: episodes.truncated,
  ranked: episodes.ranked,
  unrankedReason: episodes.unrankedReason,
  ticketed: sql<boolean>`${episodes.ticketId} is not null`,
  verification: episodes.verification,
  verificationReason: episodes.verificationReason,
  replay: episodes.replay,
  claimed: episodes.claimed,
};

export async function loadRun(db: Db, id: string): Promise<RunDetail | null> {
  const [run] = await db
    .select({
      ...runSummaryColumns,
      clientId: runs.clientId,
      learningCurve: runs.learningCurve,
      training: runs.training,
      player: runs.player,
      agentId: runs.agentId,
      agentName: agents.name,
      agentKind: agents.kind,
    })
    .from(runs)
    .leftJoin(agents, eq(agents.id, runs.agentId))
    .where(eq(runs.id, id));
  if (!run) return null;
  const rows: EpisodeRow[] =
    run.kind === 'human'
      ? (
          await db
            .select({
              id: humanEpisodes.id,
              gameId: humanEpisodes.gameId,
              seed: humanEpisodes.seed,
              score: humanEpisodes.score,
              length: humanEpisodes.length,
              ranked: humanEpisodes.ranked,
              unrankedReason: humanEpisodes.unrankedReason,
              ticketed: sql<boolean>`${humanEpisodes.ticketId} is not null`,
              verification: humanEpisodes.verification,
              verificationReason: humanEpisodes.verificationReason,
              replay: humanEpisodes.replay,
              claimed: humanEpisodes.claimed,
              totals: sql<{ terminated: boolean; truncated: boolean }>`${humanEpisodes.record}->'totals'`,
            })
            .from(humanEpisodes)
            .where(eq(humanEpisodes.runId, id))
            .orderBy(humanEpisodes.gameId, humanEpisodes.seed, humanEpisodes.id)
        ).map(({ totals, ...e }) => ({ ...e, terminated: totals.terminated, truncated: totals.truncated }))
      : await db.select(episodeRowColumns).from(episodes).where(eq(episodes.runId, id)).orderBy(episodes.gameId, episodes.seed, episodes.id);
  const { agentName, agentKind, agentId, ...rest } = run;
  const draws = agentId === null ? [] : await drawSummaries(db, agentId, rest.gameIds);
  return { run: rest, agent: agentName ? { name: agentName, kind: agentKind! } : null, episodes: rows, tickets: draws };
}

export interface GameDetail {
  game: GameColumn & { version: string; verifierChecksum: string; msPerStep: number; suites: string[]; active: boolean };
  references: { kind: 'human' | 'random'; score: number; status: string; provenance: string; stepBudget: number; episodes: number }[];
  top: (EpisodeRow & { agent: string; runId: string })[];
  /** Ranked episode scores (a capped sample, most recent first) for the distribution plot. */
  scores: number[];
  agents: number;
}

export async function loadGame(db: Db, id: string, opts: { top?: number; sample?: number } = {}): Promise<GameDetail | null> {
  const [game] = await db.select().from(games).where(eq(games.id, id));
  if (!game) return null;
  const [refs, top, scores, [{ n }]] = await Promise.all([
    db.select().from(gameReferences).where(eq(gameReferences.gameId, id)).orderBy(gameReferences.kind),
    db
      .select({ ...episodeRowColumns, agent: agents.name, runId: episodes.runId })
      .from(episodes)
      .innerJoin(agents, eq(agents.id, episodes.agentId))
      .where(and(eq(episodes.gameId, id), eq(episodes.ranked, true)))
      .orderBy(desc(episodes.score), asc(episodes.id))
      .limit(opts.top ?? 10),
    db
      .select({ score: episodes.score })
      .from(episodes)
      .where(and(eq(episodes.gameId, id), eq(episodes.ranked, true)))
      .orderBy(desc(episodes.id))
      .limit(opts.sample ?? 5000),
    db.select({ n: count() }).from(agentGameStats).where(eq(agentGameStats.gameId, id)),
  ]);
  const human = refs.find((r) => r.kind === 'human');
  const random = refs.find((r) => r.kind === 'random');
  return {
    game: { ...game, human: human ? { score: human.score, status: human.status } : null, random: random?.score ?? null },
    references: refs.map((r) => ({ kind: r.kind, score: r.score, status: r.status, provenance: r.provenance, stepBudget: r.stepBudget, episodes: r.episodes })),
    top,
    scores: scores.map((s) => s.score),
    agents: n,
  };
}
