/**
 * A freshly started site: the seed script's baselines take the one way in (a server-issued ticket,
 * intake, the verification queue), so every ranked row was replayed by the server and is stored
 * as replayed, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { agents, episodeRecords, episodes, gameReferences, runs } from '../drizzle/schema';
import { GENERIC_POLICY_AGENT, genericPolicyFile } from '../gym/agents';
import { getGame, loadCatalog } from '../gym/catalog';
import { canonicalJson } from '../gym/schema';
import { useBrowser } from '../gym/testing';
import { BASELINE_AGENTS } from './aggregates';
import type { Database, Db } from './db';
import { syncGames } from './games';
import { loadLeaderboard } from './queries';
import { missingBaselines, seedInProcess } from './seed';
import { BASELINE_SEED_COUNT } from './baselines';
import { testDrivers } from './test-support';
import { verifyAbortable } from './verifier-browser';

const gym = useBrowser();
let browser: Browser;

beforeAll(async () => {
  browser = await gym.browser();
});

for (const driver of testDrivers()) {
  describe(`${driver.driver}: a freshly seeded site`, () => {
    let database: Database;
    let db: Db;
    /** Every replay the server ran, by "agent-less" key game/seed/actions: what it gave. */
    const replays = new Map<string, string>();

    beforeAll(async () => {
      database = await driver.open();
      db = database.db;
      const catalog = loadCatalog();
      await syncGames(db, catalog);
      const { jobs } = await missingBaselines(db, [getGame('snake')], BASELINE_AGENTS);
      expect(jobs.map((j) => j.agent)).toEqual(['random', 'scripted', 'ppo-generic']);
      const report = await seedInProcess({
        db,
        catalog,
        browser,
        jobs,
        verify: async (record, signal) => {
          const result = await verifyAbortable(record, browser, signal);
          if (result.ok) replays.set(`${record.gameId}/${record.seed}/${canonicalJson(record.actions)}`, canonicalJson(result.replayed));
          return result;
        },
      });
      expect(report).toEqual({ ran: 3, failed: [] });
    }, 600_000);

    afterAll(async () => {
      await database?.close();
      await driver.cleanup();
    });

    it('has ranked baselines, every ranked row replayed by the server, on a ticket, stored as replayed', async () => {
      const ranked = await db
        .select({
          id: episodes.id,
          seed: episodes.seed,
          verification: episodes.verification,
          ticketId: episodes.ticketId,
          replay: episodes.replay,
          record: episodeRecords.record,
          agent: agents.name,
        })
        .from(episodes)
        .innerJoin(episodeRecords, eq(episodeRecords.episodeId, episodes.id))
        .innerJoin(agents, eq(agents.id, episodes.agentId))
        .where(eq(episodes.ranked, true));
      expect(ranked.map((r) => r.agent).sort()).toEqual(['ppo-generic', 'random', 'scripted'].flatMap((a) => Array<string>(BASELINE_SEED_COUNT).fill(a)));
      for (const row of ranked) {
        expect(row).toMatchObject({ verification: 'verified', ticketId: expect.stringMatching(/^tkt_/), replay: { browser: { version: browser.version() } } });
        expect(canonicalJson(row.record)).toBe(replays.get(`${row.record.gameId}/${row.seed}/${canonicalJson(row.record.actions)}`));
      }
      // The seeds were drawn for the ticket, not chosen by the seeder.
      const [run] = await db
        .select({ ticketId: runs.ticketId, unrankedReason: runs.unrankedReason })
        .from(runs)
        .innerJoin(agents, eq(agents.id, runs.agentId))
        .where(eq(agents.name, 'random'));
      expect(run).toMatchObject({ ticketId: expect.stringMatching(/^tkt_/), unrankedReason: null });
      expect(ranked.some((r) => r.seed > 2)).toBe(true);
    });

    it('shows every leaderboard entry as replayed and ticketed, and the random reference as replayed', async () => {
      const lb = await loadLeaderboard(db, { suite: 'all' });
      expect(lb.rows.map((r) => r.agent.name).sort()).toEqual(['ppo-generic', 'random', 'scripted']);
      // Baselines are played by the server itself on seeds it drew: server-played, so the default board ranks them.
      expect(lb.play).toBe('server');
      for (const row of lb.rows) expect(row.serverPlayed && Object.values(row.cells).every((c) => c.replayVerified && c.ticketed && c.serverPlayed)).toBe(true);
      const [random] = await db
        .select()
        .from(gameReferences)
        .where(and(eq(gameReferences.gameId, 'snake'), eq(gameReferences.kind, 'random')));
      expect(random.provenance).toMatch(/ticketed seeds .* replayed by this server/);
    });

    it('ranks the generic policy as a trained, not game-specific, baseline that read the vector', async () => {
      const [run] = await db
        .select({ observation: runs.observation, harness: runs.harness, gameSpecific: runs.gameSpecific, training: runs.training, curve: runs.learningCurve })
        .from(runs)
        .innerJoin(agents, eq(agents.id, runs.agentId))
        .where(eq(agents.name, GENERIC_POLICY_AGENT));
      const sha = createHash('sha256')
        .update(readFileSync(genericPolicyFile('snake')!))
        .digest('hex');
      expect(run).toMatchObject({
        observation: ['vector'],
        harness: 'built-in ppo-generic agent',
        gameSpecific: false,
        training: { algorithm: 'ppo', checkpointSha256: sha, gameSpecific: false, config: { generic: true, game: 'snake' } },
      });
      // Its learning curve, as the description beside the checkpoint has it: the agent page plots it.
      expect(run.curve?.length).toBeGreaterThan(10);
      expect(run.curve?.at(-1)?.step).toBe(run.training?.totalTimesteps);
    });

    it('skips the stored baselines on the next start', async () => {
      expect((await missingBaselines(db, [getGame('snake')], BASELINE_AGENTS)).jobs).toEqual([]);
    });
  });
}
