/**
 * Storage on both drivers: migrations (twice), inserts through the ingest path, the aggregates
 * and the leaderboard queries, which must give the same answers on PGlite and PostgreSQL.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import {
  agentGameStats,
  agentSuiteStats,
  agents,
  episodeRecords,
  episodes,
  gameReferences,
  games,
  humanEpisodes,
  humanPlayers,
  runs,
  submissions,
} from '../schema';
import { openDatabase, type Database, type Db } from '../../leaderboard/db';
import { acquireLock, DatabaseBusyError } from '../../leaderboard/dir-lock';
import { syncGames } from '../../leaderboard/games';
import { refreshReferences } from '../../leaderboard/aggregates';
import { ownAgent, storeRun, type StoredEpisode } from '../../leaderboard/ingest';
import { loadAgent, loadGame, loadLeaderboard, loadRun } from '../../leaderboard/queries';
import { createToken } from '../../leaderboard/tokens';
import type { EpisodeRecord } from '../../gym/schema';
import { migrationsDir } from '../../leaderboard/paths';
import { createScratchDatabase } from '../../leaderboard/pg-scratch';
import { fakeCatalog, fakeGame, fakeRecord, fakeTicket, testDrivers } from '../../leaderboard/test-support';

const A = fakeGame('ga', { human: 100 });
const B = fakeGame('gb', { human: 50 });
const C = fakeGame('gc', { human: 10, suites: ['extra'] });
const catalog = fakeCatalog([A, B, C]);

const ep = (record: EpisodeRecord): StoredEpisode => ({ record, claimed: { browser: record.browser }, reason: 'test' });
const settings = { observation: ['state' as const] };
let clientSeq = 0;
/** Stores a run as verification would, on a ticket of exactly its seeds (the runs here are ranked where their settings are official). */
const run = async (db: Db, tokenId: number | null, agent: string, records: EpisodeRecord[], kind: 'evaluation' | 'human' = 'evaluation', ticketed = true) =>
  storeRun(db, {
    clientId: `client-${++clientSeq}`,
    tokenId,
    agent,
    kind,
    settings,
    bodyHash: String(clientSeq),
    ticketId: ticketed ? await fakeTicket(db, tokenId, records) : null,
    receivedAt: new Date(),
    episodes: records.map(ep),
  });

/** The fixed data every driver gets; expected numbers are worked out in the tests below. */
async function loadFixture(db: Db) {
  await syncGames(db, catalog);
  const t1 = await createToken(db, { name: 'one' });
  const t2 = await createToken(db, { name: 'two' });
  await run(db, null, 'random', [
    ...[0, 1, 2].map((s) => fakeRecord(A, s, 10)),
    ...[0, 1, 2].map((s) => fakeRecord(B, s, 5)),
    ...[0, 1, 2].map((s) => fakeRecord(C, s, 1)),
  ]);
  await run(db, t1.id, 'alpha', [fakeRecord(A, 0, 50), fakeRecord(A, 1, 70), fakeRecord(A, 2, 90), ...[0, 1, 2].map((s) => fakeRecord(B, s, 25))]);
  // beta: only two seeds on gb, so it is incomplete on the core suite.
  await run(db, t1.id, 'beta', [...[0, 1, 2].map((s) => fakeRecord(A, s, 100)), fakeRecord(B, 0, 50), fakeRecord(B, 1, 50)]);
  // gamma, and a run of gamma's at another step budget that must not count (self-seeded: a ticket it drew and did not rank with would count, as forfeited seeds).
  await run(db, t2.id, 'gamma', [fakeRecord(A, 0, 10), fakeRecord(A, 1, 30), fakeRecord(A, 2, 40), ...[0, 1, 2].map((s) => fakeRecord(B, s, 0))]);
  await run(db, t2.id, 'gamma', [fakeRecord(A, 3, 1000, { stepBudget: 200 })], 'evaluation', false);
  return { t1, t2 };
}

async function rowCounts(db: Db) {
  const n = async (t: typeof runs | typeof episodes | typeof episodeRecords | typeof agents | typeof agentGameStats) =>
    (await db.select({ n: count() }).from(t))[0].n;
  return { runs: await n(runs), episodes: await n(episodes), records: await n(episodeRecords), agents: await n(agents), cells: await n(agentGameStats) };
}

const results = new Map<string, unknown>();
const drivers = testDrivers();

for (const driver of drivers) {
  describe(`${driver.driver}`, () => {
    let database: Database;
    let db: Db;
    let tokens: Awaited<ReturnType<typeof loadFixture>>;
    beforeAll(async () => {
      database = await driver.open();
      db = database.db;
      tokens = await loadFixture(db);
    });
    afterAll(async () => {
      await database?.close();
      await driver.cleanup();
    });

    it('runs the migrations again without harm or data loss', async () => {
      const before = await rowCounts(db);
      await driver.migrateAgain(database);
      expect(await rowCounts(db)).toEqual(before);
    });

    it('normalises, averages seeds and ranks complete agents first', async () => {
      const lb = await loadLeaderboard(db, { play: 'any', suite: 'core' });
      expect(lb.suites).toEqual(['core', 'extra', 'all']);
      expect(lb.games.map((g) => g.id)).toEqual(['ga', 'gb']);
      expect(lb.games[0]).toMatchObject({ human: { score: 100, status: 'provisional' }, random: 10 });
      expect(lb.total).toBe(4);
      expect(lb.rows.map((r) => [r.agent.name, r.complete, r.gamesCounted])).toEqual([
        ['alpha', true, 2],
        ['gamma', true, 2],
        ['random', true, 2],
        ['beta', false, 1],
      ]);
      const [alpha, gamma, random, beta] = lb.rows;
      expect(alpha.meanNormalised).toBeCloseTo(60, 9); // (70 + 50) / 2
      expect(alpha.meanAleNormalised).toBeCloseTo((100 * 60) / 90 / 2 + (100 * 20) / 45 / 2, 9);
      expect(alpha.cells.ga).toMatchObject({ seeds: 3, episodes: 3, meanScore: 70, stdScore: 20, bestScore: 90, normalised: 70 });
      // The 200-step episode is not ranked.
      expect(gamma.cells.ga.meanScore).toBeCloseTo(80 / 3, 9);
      expect(gamma.cells.ga.episodes).toBe(3);
      expect(gamma.cells.ga).toMatchObject({ replayVerified: true, ticketed: true });
      expect(gamma.meanNormalised).toBeCloseTo(40 / 3 / 1, 9);
      expect(random.meanNormalised).toBeCloseTo(10, 9);
      expect(random.meanAleNormalised).toBeCloseTo(0, 9);
      expect(beta.meanNormalised).toBeNull();
      expect(beta.cells.gb.seeds).toBe(2);
      // Uncertainty (uncertainty.ts): a t-interval per cell; the IQM of every (game, seed) normalised score with a bootstrap interval.
      expect(alpha.cells.ga.ci95?.lo).toBeCloseTo(70 - (4.303 * 20) / Math.sqrt(3), 6);
      expect(alpha.iqm?.value).toBeCloseTo(55, 9); // [50, 70, 90] on ga and [50, 50, 50] on gb: the middle four of the six
      expect(gamma.iqm?.value).toBeCloseTo(10, 9); // [10, 30, 40] and [0, 0, 0]
      expect(random.iqm).toEqual({ value: 10, lo: 10, hi: 10 });
      expect(beta.iqm).toBeNull();
      expect(alpha.iqm!.lo).toBeGreaterThan(gamma.iqm!.hi);
      // gamma's interval holds random's 10: the two are not told apart; alpha is clear of gamma.
      expect(lb.rows.map((r) => r.tiedWithAbove)).toEqual([false, false, true, false]);
      // The page reads the IQM stored with the suite row; rows the 0010 migration left empty are filled when the games are synced.
      await db.update(agentSuiteStats).set({ iqm: null, iqmLow: null, iqmHigh: null });
      expect((await loadLeaderboard(db, { play: 'any', suite: 'core' })).rows[0].iqm).toBeNull();
      await syncGames(db, catalog);
      expect((await loadLeaderboard(db, { play: 'any', suite: 'core' })).rows.map((r) => r.iqm)).toEqual(lb.rows.map((r) => r.iqm));
      results.set(`${driver.driver}:core`, lb);
    });

    it('sorts by a game, by name, and pages', async () => {
      const byA = await loadLeaderboard(db, { play: 'any', suite: 'core', sort: 'game:ga' });
      expect(byA.rows.map((r) => r.agent.name)).toEqual(['beta', 'alpha', 'gamma', 'random']);
      const byName = await loadLeaderboard(db, { play: 'any', suite: 'all', sort: 'name', pageSize: 2, page: 2 });
      expect(byName.rows.map((r) => [r.rank, r.agent.name])).toEqual([
        [3, 'gamma'],
        [4, 'random'],
      ]);
      const extra = await loadLeaderboard(db, { play: 'any', suite: 'extra' });
      expect(extra.rows.map((r) => r.agent.name)).toEqual(['random']);
      results.set(`${driver.driver}:pages`, [byA, byName, extra]);
    });

    it('loads agent, run and game pages', async () => {
      const alpha = await loadAgent(db, 'alpha');
      expect(alpha?.games.map((g) => [g.id, g.cell.normalised])).toEqual([
        ['ga', 70],
        ['gb', 50],
      ]);
      expect(alpha?.runs).toHaveLength(1);
      expect(alpha?.agent.settings).toMatchObject({ observation: ['state'], actionSpace: 'discrete', stepBudget: 100, official: true });
      const r = await loadRun(db, alpha!.runs[0].id);
      expect(r?.episodes.map((e) => [e.gameId, e.seed, e.score])).toEqual([
        ['ga', 0, 50],
        ['ga', 1, 70],
        ['ga', 2, 90],
        ['gb', 0, 25],
        ['gb', 1, 25],
        ['gb', 2, 25],
      ]);
      const game = await loadGame(db, 'ga', { top: 3 });
      expect(game?.top.map((e) => [e.agent, e.score])).toEqual([
        ['beta', 100],
        ['beta', 100],
        ['beta', 100],
      ]);
      expect(game?.scores).toHaveLength(3 + 3 + 3 + 3);
      expect(game?.references.map((x) => [x.kind, x.score, x.status])).toEqual([
        ['human', 100, 'provisional'],
        ['random', 10, 'verified'],
      ]);
      expect(await loadAgent(db, 'nobody')).toBeNull();
      expect(await loadRun(db, '00000000-0000-0000-0000-000000000000')).toBeNull();
      results.set(`${driver.driver}:agent`, {
        alpha: { ...alpha, agent: { ...alpha!.agent, createdAt: null }, runs: alpha!.runs.length },
        top: game?.top.map((e) => e.score),
      });
    });

    it('an agent name belongs to the token that made it, and a failed store leaves nothing', async () => {
      const before = await rowCounts(db);
      await expect(run(db, tokens.t2.id, 'alpha', [fakeRecord(A, 5, 1)])).rejects.toMatchObject({ code: 'AGENT_NAME_TAKEN' });
      await expect(run(db, tokens.t1.id, 'random', [fakeRecord(A, 5, 1)])).rejects.toMatchObject({ code: 'AGENT_NAME_TAKEN' });
      // jsonb refuses \u0000: the episode_records insert fails after the run and episodes went in.
      const poisoned = fakeRecord(A, 7, 1);
      poisoned.browser.version = 'bad\u0000';
      await expect(run(db, tokens.t1.id, 'delta', [fakeRecord(A, 6, 1), poisoned])).rejects.toThrow();
      expect(await rowCounts(db)).toEqual(before);
    });

    it("an accepted player's verified play replaces the manifest's reference and rescores the game", async () => {
      const admin = await createToken(db, { name: 'admin', admin: true });
      // At another step budget: does not count.
      await run(db, admin.id, 'pat', [fakeRecord(A, 0, 999, { stepBudget: 50 })], 'human');
      let [ref] = await db.select().from(gameReferences).where(eq(gameReferences.gameId, 'ga'));
      expect(ref).toMatchObject({ kind: 'human', score: 100, status: 'provisional' });
      await run(db, admin.id, 'pat', [fakeRecord(A, 0, 150), fakeRecord(A, 1, 250)], 'human');
      [ref] = await db.select().from(gameReferences).where(eq(gameReferences.gameId, 'ga'));
      // One accepted player (an admin's submission vouches for its player): the mean, provisional until five have played.
      expect(ref).toMatchObject({ kind: 'human', score: 200, status: 'provisional', episodes: 2 });
      expect(ref.provenance).toMatch(/2 verified human episodes.*\(1 so far\)/);
      const lb = await loadLeaderboard(db, { play: 'any', suite: 'core' });
      const alpha = lb.rows.find((r) => r.agent.name === 'alpha')!;
      expect(alpha.cells.ga.normalised).toBeCloseTo(35, 9);
      expect(alpha.meanNormalised).toBeCloseTo((35 + 50) / 2, 9);
      expect(alpha.cells.ga.aleNormalised).toBeCloseTo((100 * 60) / 190, 9);
    });

    it('keeps the learning curve of a training run, and its unofficial budget out of the ranking', async () => {
      const curve = [
        { step: 0, meanReturn: 0.5 },
        { step: 2048, meanReturn: 3.25 },
      ];
      const stored = await storeRun(db, {
        clientId: 'training-1',
        tokenId: tokens.t2.id,
        agent: 'trainer',
        kind: 'training',
        settings: { observation: ['pixels'], harness: 'ppo', model: 'cnn-small' },
        learningCurve: curve,
        bodyHash: 'training-1',
        ticketId: null,
        receivedAt: new Date(),
        episodes: [fakeRecord(A, 0, 10, { stepBudget: 50 })].map(ep),
      });
      expect(stored.run).toMatchObject({ episodes: 1, ranked: 0 });
      const r = await loadRun(db, stored.run.id);
      expect(r?.run).toMatchObject({ kind: 'training', learningCurve: curve, official: false, stepBudget: 50, harness: 'ppo', model: 'cnn-small' });
      expect(r?.episodes[0]).toMatchObject({ ranked: false, unrankedReason: expect.stringMatching(/step budget of 50/) });
      // Not ranked anywhere: no cells, no suite rows.
      expect((await loadAgent(db, 'trainer'))?.games).toEqual([]);
      expect((await loadLeaderboard(db, { play: 'any', suite: 'all' })).rows.some((row) => row.agent.name === 'trainer')).toBe(false);
      // A curve of the first shape ({ step, meanReturn }) and no training settings: what runs before 0003 hold.
      expect(r?.run.training).toBeNull();
      expect(r?.run.gameSpecific).toBe(false);
      expect((await loadAgent(db, 'trainer'))?.training).toMatchObject({ runId: stored.run.id, learningCurve: curve, training: null });

      // A run of `train --submit`: the richer curve and the training settings come back as sent, the agent page takes the latest.
      const training = {
        algorithm: 'ppo',
        backend: 'webgpu',
        totalTimesteps: 4096,
        checkpointSha256: 'c'.repeat(64),
        config: { command: { game: 'ga' } },
        gameSpecific: true,
      };
      const richer = [
        { step: 1024, meanReturn: 1, update: 1, entropy: 1.6, policyLoss: -0.01 },
        { step: 4096, meanReturn: 4, update: 4, entropy: 1.2, explainedVariance: 0.3 },
      ];
      const second = await storeRun(db, {
        clientId: 'training-2',
        tokenId: tokens.t2.id,
        agent: 'trainer',
        kind: 'training',
        settings: { observation: ['vector'], training },
        learningCurve: richer,
        bodyHash: 'training-2',
        ticketId: null,
        receivedAt: new Date(),
        episodes: [fakeRecord(A, 1, 10, { stepBudget: 50 })].map(ep),
      });
      expect((await loadRun(db, second.run.id))?.run).toMatchObject({ learningCurve: richer, training });
      expect((await loadAgent(db, 'trainer'))?.training).toMatchObject({ runId: second.run.id, learningCurve: richer, training });
      // Its training was game-specific: the run and the agent's settings (the leaderboard's Settings column) say so.
      expect((await loadRun(db, second.run.id))?.run.gameSpecific).toBe(true);
      expect((await loadAgent(db, 'trainer'))?.agent.settings?.gameSpecific).toBe(true);
    });

    it('a new game version unranks old episodes', async () => {
      const bumped = fakeCatalog([{ ...B, manifest: { ...B.manifest, version: '2.0.0' } }, A, C]);
      const report = await syncGames(db, bumped);
      expect(report.changed).toEqual(['gb']);
      const lb = await loadLeaderboard(db, { play: 'any', suite: 'core' });
      expect(lb.rows.every((r) => r.cells.gb === undefined && !r.complete)).toBe(true);
      const [g] = await db.select().from(games).where(eq(games.id, 'gb'));
      expect(g.version).toBe('2.0.0');
      // Back to the old build: the old episodes count again.
      await syncGames(db, catalog);
      expect((await loadLeaderboard(db, { play: 'any', suite: 'core' })).rows.find((r) => r.agent.name === 'alpha')?.cells.gb?.meanScore).toBe(25);
    });
  });
}

describe('both drivers', () => {
  it('give the same leaderboards', () => {
    // Only PGlite without TEST_DATABASE_URL: nothing to compare (in CI testDrivers fails instead).
    if (drivers.length < 2) return;
    expect(results.size).toBe(6);
    for (const key of ['core', 'pages', 'agent']) expect(results.get(`postgres:${key}`)).toEqual(results.get(`pglite:${key}`));
  });
});

/** A database migrated only up to `upTo` (a migration tag), on this driver. */
async function databaseAt(driver: 'pglite' | 'postgres', upTo: string): Promise<{ database: Database; drop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arcade-migrations-'));
  cpSync(migrationsDir(), dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === upTo) + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  try {
    if (driver === 'pglite') {
      const database = await openDatabase({ dataDir: 'memory', migrate: false });
      await (await import('drizzle-orm/pglite/migrator')).migrate(database.db as never, { migrationsFolder: dir });
      return { database, drop: async () => undefined };
    }
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'arcade_test');
    const database = await openDatabase({ url: scratch.url, migrate: false });
    await (await import('drizzle-orm/postgres-js/migrator')).migrate(database.db as never, { migrationsFolder: dir });
    return { database, drop: () => scratch.drop() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('migrating a database from before evaluation tickets', () => {
  for (const { driver } of drivers) {
    it(`${driver}: keeps every row, unranked with its reason, empties the aggregates and resets the references`, async () => {
      const { database, drop } = await databaseAt(driver, '0000_init');
      const db = database.db;
      try {
        // Rows as the old code stored them (ranked self-seeded episodes, a never-replayed baseline, verified human play).
        await db.execute(sql`insert into games (id, title, version, verifier_checksum, step_budget, ms_per_step, suites, manifest_human_reference)
          values ('ga', 'GA', '1.0.0', ${'a'.repeat(64)}, 100, 100, '["core"]', '{"score": 100, "provenance": "Provisional: estimated", "stepBudget": 100}')`);
        await db.execute(sql`insert into api_tokens (name, token_hash, token_prefix) values ('t', 'h', 'agt_x')`);
        await db.execute(sql`insert into agents (name, kind, token_id) values ('random', 'baseline', null), ('alpha', 'submitted', 1)`);
        await db.execute(sql`insert into runs (id, client_id, token_id, agent_id, kind, observation, action_space, step_budget, ms_per_step, official, game_ids, body_hash, response, episode_count)
          values ('00000000-0000-0000-0000-000000000001', 'baseline:random:ga', null, 1, 'evaluation', '["state"]', 'discrete', 100, 100, true, '["ga"]', 'b1', '{"run": {"id": "old-1"}}', 1),
                 ('00000000-0000-0000-0000-000000000002', 'client-alpha', 1, 2, 'evaluation', '["state"]', 'discrete', 100, 100, true, '["ga"]', 'b2', '{"run": {"id": "old-2"}}', 1),
                 ('00000000-0000-0000-0000-000000000003', 'client-human', 1, null, 'human', '["screenshot"]', 'discrete', 100, 100, true, '["ga"]', 'b3', '{}', 1)`);
        await db.execute(sql`insert into episodes (run_id, agent_id, game_id, game_version, verifier_checksum, seed, score, length, terminated, truncated, step_budget, ms_per_step, ranked, verification, verification_reason)
          values ('00000000-0000-0000-0000-000000000001', 1, 'ga', '1.0.0', ${'a'.repeat(64)}, 0, 10, 3, true, false, 100, 100, true, 'server-run', 'seed script'),
                 ('00000000-0000-0000-0000-000000000002', 2, 'ga', '1.0.0', ${'a'.repeat(64)}, 0, 50, 3, true, false, 100, 100, true, 'verified', 'replayed')`);
        await db.execute(sql`insert into human_episodes (run_id, game_id, player, game_version, seed, score, length, step_budget, ms_per_step, verification, verification_reason, record)
          values ('00000000-0000-0000-0000-000000000003', 'ga', 'pat', '1.0.0', 0, 300, 3, 100, 100, 'verified', 'replayed', '{}')`);
        await db.execute(sql`insert into agent_game_stats (agent_id, game_id, episodes, seeds, mean_score, std_score, best_score, normalised, ale_normalised, replay_verified)
          values (1, 'ga', 1, 1, 10, 0, 10, 3.3, 0, false), (2, 'ga', 1, 1, 50, 0, 50, 16.7, 14.3, true)`);
        await db.execute(
          sql`insert into agent_suite_stats (agent_id, suite, games_counted, suite_games, complete, mean_normalised) values (2, 'core', 0, 1, false, null)`,
        );
        await db.execute(sql`insert into game_references (game_id, kind, score, status, provenance, step_budget, episodes)
          values ('ga', 'human', 300, 'verified', 'Mean of 1 verified human episode', 100, 1), ('ga', 'random', 10, 'verified', 'random agent', 100, 1)`);

        await (driver === 'pglite'
          ? (await import('drizzle-orm/pglite/migrator')).migrate(db as never, { migrationsFolder: migrationsDir() })
          : (await import('drizzle-orm/postgres-js/migrator')).migrate(db as never, { migrationsFolder: migrationsDir() }));

        const eps = await db
          .select({ ranked: episodes.ranked, eligible: episodes.eligible, reason: episodes.unrankedReason, verification: episodes.verification })
          .from(episodes)
          .orderBy(episodes.id);
        expect(eps).toEqual([
          { ranked: false, eligible: false, verification: 'server-run', reason: expect.stringMatching(/never re-simulated, and self-seeded/) },
          { ranked: false, eligible: false, verification: 'verified', reason: expect.stringMatching(/^Self-seeded: submitted before evaluation tickets/) },
        ]);
        expect(await db.select({ ranked: humanEpisodes.ranked, reason: humanEpisodes.unrankedReason }).from(humanEpisodes)).toEqual([
          { ranked: false, reason: expect.stringMatching(/^Self-seeded/) },
        ]);
        expect((await db.select({ reason: runs.unrankedReason }).from(runs)).every((r) => /^Self-seeded/.test(r.reason ?? ''))).toBe(true);
        expect(await db.select().from(agentGameStats)).toEqual([]);
        expect(await db.select().from(agentSuiteStats)).toEqual([]);
        expect(
          await db
            .select({
              kind: gameReferences.kind,
              score: gameReferences.score,
              status: gameReferences.status,
              provenance: gameReferences.provenance,
              episodes: gameReferences.episodes,
            })
            .from(gameReferences),
        ).toEqual([{ kind: 'human', score: 100, status: 'provisional', provenance: 'Provisional: estimated', episodes: 0 }]);
        // A retry of an old run's id is still answered from what was stored.
        const subs = await db
          .select({ clientId: submissions.clientId, status: submissions.status, runId: submissions.runId, result: submissions.result })
          .from(submissions)
          .orderBy(submissions.clientId);
        expect(subs.map((r) => [r.clientId, r.status, r.runId])).toEqual([
          ['baseline:random:ga', 'accepted', '00000000-0000-0000-0000-000000000001'],
          ['client-alpha', 'accepted', '00000000-0000-0000-0000-000000000002'],
          ['client-human', 'accepted', '00000000-0000-0000-0000-000000000003'],
        ]);
        expect(subs[1].result).toEqual({ run: { id: 'old-2' } });
        expect((await loadLeaderboard(db, { play: 'any', suite: 'all' })).rows).toEqual([]);
      } finally {
        await database.close();
        await drop();
      }
    });
  }
});

describe('migrating agent names that already clash under the canonical form (0005)', () => {
  for (const { driver } of drivers) {
    it(`${driver}: keeps every agent, gives the form to the baseline or the oldest, and the name to it`, async () => {
      const { database, drop } = await databaseAt(driver, '0004_game_specific');
      const db = database.db;
      try {
        await db.execute(sql`insert into api_tokens (name, token_hash, token_prefix) values ('t1', 'h1', 'agt_1'), ('t2', 'h2', 'agt_2')`);
        // The look-alikes were registered by another token before the baseline ran (lower ids), as outside testing found.
        await db.execute(sql`insert into agents (name, kind, token_id) values
          ('SCRIPTED', 'submitted', 2), ('alice-snake', 'submitted', 1), ('Alice-snake', 'submitted', 2), ('alice-snake.', 'submitted', 2),
          ('scripted', 'baseline', null), ('bob', 'submitted', 1)`);
        await (driver === 'pglite'
          ? (await import('drizzle-orm/pglite/migrator')).migrate(db as never, { migrationsFolder: migrationsDir() })
          : (await import('drizzle-orm/postgres-js/migrator')).migrate(db as never, { migrationsFolder: migrationsDir() }));
        const rows = await db.select({ id: agents.id, name: agents.name, canonical: agents.canonicalName }).from(agents).orderBy(agents.id);
        expect(rows).toEqual([
          { id: 1, name: 'SCRIPTED', canonical: 'scripted~1' },
          { id: 2, name: 'alice-snake', canonical: 'alice-snake' },
          { id: 3, name: 'Alice-snake', canonical: 'alice-snake~3' },
          { id: 4, name: 'alice-snake.', canonical: 'alice-snake~4' },
          { id: 5, name: 'scripted', canonical: 'scripted' },
          { id: 6, name: 'bob', canonical: 'bob' },
        ]);
        // The name resolves to the one that holds the form: a later look-alike's token is refused, naming it.
        await expect(ownAgent(db, 'Alice-snake', 2)).rejects.toMatchObject({ code: 'AGENT_NAME_TAKEN', details: { clashesWith: 'alice-snake' } });
        expect((await ownAgent(db, 'alice-snake', 1))?.id).toBe(2);
        // A new look-alike is refused by the unique form, whatever the code in front of it checks.
        await expect(db.insert(agents).values({ name: 'BOB', canonicalName: 'bob', kind: 'submitted', tokenId: 2 })).rejects.toThrow();
      } finally {
        await database.close();
        await drop();
      }
    });
  }
});

describe('migrating aggregates from before play modes (0008)', () => {
  for (const { driver } of drivers) {
    it(`${driver}: marks a cell server-played only when every ranked episode's ticket was live, a policy run or a baseline's`, async () => {
      const { database, drop } = await databaseAt(driver, '0007_live_tickets');
      const db = database.db;
      try {
        const sha = 'a'.repeat(64);
        await db.execute(sql`insert into games (id, title, version, verifier_checksum, step_budget, ms_per_step, suites, manifest_human_reference)
          values ('ga', 'GA', '1.0.0', ${sha}, 100, 100, '["core"]', '{"score": 100, "provenance": "Provisional", "stepBudget": 100}'),
                 ('gb', 'GB', '1.0.0', ${sha}, 100, 100, '["extra"]', '{"score": 100, "provenance": "Provisional", "stepBudget": 100}')`);
        await db.execute(sql`insert into api_tokens (name, token_hash, token_prefix) values ('t', 'h', 'agt_x')`);
        await db.execute(
          sql`insert into agents (name, canonical_name, kind, token_id) values ('random', 'random', 'baseline', null), ('live', 'live', 'submitted', 1), ('mixed', 'mixed', 'submitted', 1)`,
        );
        await db.execute(sql`insert into tickets (id, token_id, purpose, scope, games, expires_at, mode) values
          ('tkt_base', null, 'baseline', 'game ga', '[]', now(), 'seeds'), ('tkt_live', 1, 'evaluation', 'game ga', '[]', now(), 'live'),
          ('tkt_known', 1, 'evaluation', 'game gb', '[]', now(), 'seeds'), ('tkt_live2', 1, 'evaluation', 'game ga', '[]', now(), 'live')`);
        await db.execute(sql`insert into runs (id, client_id, token_id, agent_id, kind, observation, action_space, step_budget, ms_per_step, official, game_ids, body_hash, response, episode_count)
          values ('00000000-0000-0000-0000-000000000001', 'r1', null, 1, 'evaluation', '["state"]', 'discrete', 100, 100, true, '["ga"]', 'b1', '{}', 1),
                 ('00000000-0000-0000-0000-000000000002', 'r2', 1, 2, 'evaluation', '["state"]', 'discrete', 100, 100, true, '["ga"]', 'b2', '{}', 1),
                 ('00000000-0000-0000-0000-000000000003', 'r3', 1, 3, 'evaluation', '["state"]', 'discrete', 100, 100, true, '["ga","gb"]', 'b3', '{}', 2)`);
        await db.execute(sql`insert into episodes (run_id, agent_id, game_id, game_version, verifier_checksum, seed, score, length, terminated, truncated, step_budget, ms_per_step, ticket_id, eligible, ranked, verification, verification_reason)
          values ('00000000-0000-0000-0000-000000000001', 1, 'ga', '1.0.0', ${sha}, 1, 10, 3, true, false, 100, 100, 'tkt_base', true, true, 'verified', 'replayed'),
                 ('00000000-0000-0000-0000-000000000002', 2, 'ga', '1.0.0', ${sha}, 2, 20, 3, true, false, 100, 100, 'tkt_live', true, true, 'verified', 'replayed'),
                 ('00000000-0000-0000-0000-000000000003', 3, 'ga', '1.0.0', ${sha}, 3, 30, 3, true, false, 100, 100, 'tkt_live2', true, true, 'verified', 'replayed'),
                 ('00000000-0000-0000-0000-000000000003', 3, 'gb', '1.0.0', ${sha}, 4, 40, 3, true, false, 100, 100, 'tkt_known', true, true, 'verified', 'replayed')`);
        await db.execute(sql`insert into agent_game_stats (agent_id, game_id, episodes, seeds, mean_score, std_score, best_score, replay_verified, ticketed)
          values (1, 'ga', 1, 1, 10, 0, 10, true, true), (2, 'ga', 1, 1, 20, 0, 20, true, true), (3, 'ga', 1, 1, 30, 0, 30, true, true), (3, 'gb', 1, 1, 40, 0, 40, true, true)`);
        await db.execute(sql`insert into agent_suite_stats (agent_id, suite, games_counted, suite_games, complete) values
          (1, 'core', 0, 1, false), (1, 'all', 0, 2, false), (2, 'core', 0, 1, false), (2, 'all', 0, 2, false), (3, 'core', 0, 1, false), (3, 'extra', 0, 1, false), (3, 'all', 0, 2, false)`);

        await (driver === 'pglite'
          ? (await import('drizzle-orm/pglite/migrator')).migrate(db as never, { migrationsFolder: migrationsDir() })
          : (await import('drizzle-orm/postgres-js/migrator')).migrate(db as never, { migrationsFolder: migrationsDir() }));

        const cells = await db
          .select({ agent: agentGameStats.agentId, game: agentGameStats.gameId, serverPlayed: agentGameStats.serverPlayed })
          .from(agentGameStats)
          .orderBy(agentGameStats.agentId, agentGameStats.gameId);
        expect(cells.map((c) => `${c.agent}:${c.game}:${c.serverPlayed}`)).toEqual(['1:ga:true', '2:ga:true', '3:ga:true', '3:gb:false']);
        const suites = await db
          .select({ agent: agentSuiteStats.agentId, suite: agentSuiteStats.suite, serverPlayed: agentSuiteStats.serverPlayed })
          .from(agentSuiteStats)
          .orderBy(agentSuiteStats.agentId, agentSuiteStats.suite);
        // The mixed agent's known-seed game keeps it off the default board for the suites that hold that game only.
        expect(suites.map((r) => `${r.agent}:${r.suite}:${r.serverPlayed}`)).toEqual([
          '1:all:true',
          '1:core:true',
          '2:all:true',
          '2:core:true',
          '3:all:false',
          '3:core:true',
          '3:extra:false',
        ]);
      } finally {
        await database.close();
        await drop();
      }
    });
  }
});

describe('migrating human play to players (0009)', () => {
  for (const { driver } of drivers) {
    it(`${driver}: makes every earlier player accepted, one per canonical name, and keeps the reference`, async () => {
      const { database, drop } = await databaseAt(driver, '0008_server_played');
      const db = database.db;
      try {
        const sha = 'a'.repeat(64);
        await db.execute(sql`insert into games (id, title, version, verifier_checksum, step_budget, ms_per_step, suites, manifest_human_reference)
          values ('ga', 'GA', '1.0.0', ${sha}, 100, 100, '["core"]', '{"score": 100, "provenance": "Provisional", "stepBudget": 100}')`);
        await db.execute(sql`insert into runs (id, client_id, token_id, agent_id, player, kind, observation, action_space, step_budget, ms_per_step, official, game_ids, body_hash, response, episode_count)
          values ('00000000-0000-0000-0000-000000000001', 'h1', null, null, 'Pat', 'human', '["state"]', 'discrete', 100, 100, true, '["ga"]', 'b1', '{}', 3)`);
        await db.execute(sql`insert into human_episodes (run_id, game_id, player, game_version, seed, score, length, step_budget, ms_per_step, verification, verification_reason, ranked, record)
          values ('00000000-0000-0000-0000-000000000001', 'ga', 'Pat', '1.0.0', 1, 40, 10, 100, 100, 'verified', 'replayed', true, '{}'),
                 ('00000000-0000-0000-0000-000000000001', 'ga', 'pat.', '1.0.0', 2, 60, 10, 100, 100, 'verified', 'replayed', true, '{}'),
                 ('00000000-0000-0000-0000-000000000001', 'ga', 'sam', '1.0.0', 3, 80, 10, 100, 100, 'verified', 'replayed', true, '{}')`);

        await (driver === 'pglite'
          ? (await import('drizzle-orm/pglite/migrator')).migrate(db as never, { migrationsFolder: migrationsDir() })
          : (await import('drizzle-orm/postgres-js/migrator')).migrate(db as never, { migrationsFolder: migrationsDir() }));

        const players = await db.select().from(humanPlayers).orderBy(humanPlayers.canonicalName);
        expect(players.map((p) => [p.name, p.canonicalName, p.status, p.keyHash])).toEqual([
          ['Pat', 'pat', 'accepted', null],
          ['sam', 'sam', 'accepted', null],
        ]);
        const byPlayer = await db.select({ player: humanEpisodes.player, id: humanEpisodes.playerId }).from(humanEpisodes).orderBy(humanEpisodes.seed);
        expect(byPlayer.map((e) => [e.player, e.id])).toEqual([
          ['Pat', players[0].id],
          ['pat.', players[0].id],
          ['sam', players[1].id],
        ]);
        await refreshReferences(db, ['ga']);
        const [ref] = await db.select().from(gameReferences).where(eq(gameReferences.gameId, 'ga'));
        expect(ref).toMatchObject({ kind: 'human', score: 60, episodes: 3, status: 'provisional' });
      } finally {
        await database.close();
        await drop();
      }
    });
  }
});

describe('embedded database folder', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arcade-pglite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is created with its parents, migrated twice without harm, and keeps its data', async () => {
    const dataDir = path.join(dir, 'nested', 'pglite');
    let database = await openDatabase({ dataDir });
    await syncGames(database.db, catalog);
    await database.close();
    database = await openDatabase({ dataDir });
    expect((await database.db.select({ n: count() }).from(games))[0].n).toBe(3);
    await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DatabaseBusyError);
    await database.close();
  });

  it('is refused while another live process owns it, and taken over from a dead one', () => {
    const target = path.join(dir, 'locked');
    // The parent of this test process is alive and is not us.
    writeFileSync(`${target}.lock`, JSON.stringify({ pid: process.ppid, role: 'web server', url: 'http://127.0.0.1:1', since: '' }));
    expect(() => acquireLock(target, 'test')).toThrow(/in use by process .*web server/);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(`${target}.lock`, JSON.stringify({ pid: Number(dead), role: 'gone', since: '' }));
    let release = acquireLock(target, 'test');
    release();
    // A live process that is not the owner (the owner was killed and its pid reused): taken over.
    writeFileSync(`${target}.lock`, JSON.stringify({ pid: process.ppid, started: 'not-its-start-time', role: 'killed server', since: '' }));
    release = acquireLock(target, 'test');
    release();
  });
});
