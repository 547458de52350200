/**
 * bench:db — the leaderboard's database on both drivers, in one run:
 *   - submission ingest: episodes/s through the whole protocol (a ticket, POST /api/runs, the
 *     verification queue replaying every episode in Chromium, storage), and through the storage
 *     transaction alone (no re-simulation);
 *   - batched verification's steps/s beside the gym's aggregate steps/s, taking turns in the same
 *     run (`verify_vs_gym`; BENCH_ONLY=verify runs that part alone);
 *   - the leaderboard page's server time (loadLeaderboard + rendering LeaderboardView, exactly
 *     what app/leaderboard/page.tsx does) with 1,000 agents × 20 games × 3 seeds.
 * PostgreSQL comes from TEST_DATABASE_URL or DATABASE_URL (a scratch database on it), else a
 * temporary server is started from /usr/lib/postgresql/15/bin; if neither works its numbers are null.
 * The last line is one JSON object.
 */
import { eq } from 'drizzle-orm';
import os from 'node:os';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../gym/browser';
import { getGame, loadCatalog } from '../gym/catalog';
import { evaluateGame, verifyEpisode, verifyEpisodes } from '../gym/eval';
import type { EpisodeRecord, VerifierState } from '../gym/schema';
import { BatchedVectorEnv, measuredInstancesPerPage } from '../gym/batch';
import { BrowserPool } from '../gym/pool';
import { postgresServer } from './postgres-server';
import { cyclePolicy } from './snake-cycle';
import { issueTicket } from '../leaderboard/tickets';
import { InProcessVerificationQueue } from '../leaderboard/verification-queue';
import { verifySubmission } from '../leaderboard/verify-run';
import { batchedVerifier } from '../leaderboard/verifier-browser';
import { agents, episodes, runs, submissions } from '../drizzle/schema';
import { refreshCells, refreshReferences, refreshSuites } from '../leaderboard/aggregates';
import { openDatabase, type Database, type Db } from '../leaderboard/db';
import { syncGames } from '../leaderboard/games';
import { storeRun } from '../leaderboard/ingest';
import { createScratchDatabase } from '../leaderboard/pg-scratch';
import { loadLeaderboard, type LeaderboardQuery } from '../leaderboard/queries';
import { RateLimiter } from '../leaderboard/rate-limit';
import { createSubmissionHandler } from '../leaderboard/submissions';
import type { SubmissionStatus } from '../leaderboard/submission-schema';
import { fakeCatalog, fakeGame, fakeTicket } from '../leaderboard/synthetic';
import { createToken } from '../leaderboard/tokens';
import { smokeOr } from './smoke';

// Render as the production site does: React's development build is several times slower.
// (React reads NODE_ENV when first loaded, hence the dynamic imports in render().)
(process.env as Record<string, string>).NODE_ENV = 'production';
/** react-dom ships no types here (no @types/react-dom); this is the one function used. */
type RenderToString = (element: import('react').ReactElement) => string;
async function renderer() {
  const reactDomServer = 'react-dom/server';
  const [{ createElement }, { renderToString }, { LeaderboardView }] = await Promise.all([
    import('react'),
    import(reactDomServer) as Promise<{ renderToString: RenderToString }>,
    import('../app/leaderboard/leaderboard-view'),
  ]);
  return (data: Awaited<ReturnType<typeof loadLeaderboard>>) => renderToString(createElement(LeaderboardView, { data, view: 'normalised' }));
}

const AGENTS = Number(process.env.BENCH_AGENTS ?? smokeOr(1000, 20));
const GAMES = Number(process.env.BENCH_GAMES ?? smokeOr(20, 3));
const SEEDS = 3;
const REPEATS = Number(process.env.BENCH_REPEATS ?? smokeOr(15, 2));

const log = (...a: unknown[]) => console.error(...a);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** Genuine episodes of the real Snake build on these (ticket) seeds, to submit. */
async function genuineEpisodes(browser: Browser, seeds: number[]): Promise<EpisodeRecord[]> {
  return (await evaluateGame({ game: getGame('snake'), agent: 'scripted', seeds, observation: ['state'], browser })).episodes;
}

const SUBMITTED_EPISODES = smokeOr(8, 2);

async function benchIngest(db: Db, browser: Browser) {
  await syncGames(db, loadCatalog());
  const token = await createToken(db, { name: 'bench' });
  // The protocol as a client meets it: a ticket of fresh seeds, played, then submitted.
  const ticket = await issueTicket(db, loadCatalog(), { tokenId: token.id, purpose: 'evaluation', game: 'snake', seedsPerGame: SUBMITTED_EPISODES });
  const records = await genuineEpisodes(browser, ticket.games[0].seeds);
  const steps = records.reduce((a, r) => a + r.steps.length, 0);
  // Warm the browser and the game's files up, as a running server is.
  await verifyEpisode(records[0], browser);

  // Through the API handler and the verification queue: parse, checks, 202, re-simulation of every step, storage.
  const queue = new InProcessVerificationQueue({ slots: 1 });
  // As the server's job runner does (leaderboard/verify-run.ts browserJobRunner): the episodes on batched pages.
  queue.start((job, signal) => verifySubmission({ db, verify: batchedVerifier(browser), episodeConcurrency: SUBMITTED_EPISODES }, job.submissionId, signal));
  const handle = createSubmissionHandler({ db, catalog: loadCatalog, queue, limiter: new RateLimiter({ burst: 1e9, perMinute: 1e9 }) });
  let t = performance.now();
  const res = await handle(
    new Request('http://bench/api/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.token}` },
      body: JSON.stringify({ id: 'bench-verified-run', agent: 'bench-verified', settings: { observation: ['state'] }, ticket: ticket.id, episodes: records }),
    }),
  );
  if (res.status !== 202) throw new Error(`verified submission failed: ${res.status} ${await res.text()}`);
  await queue.idle();
  const verifiedS = (performance.now() - t) / 1000;
  await queue.close();
  const [settled] = await db
    .select({ status: submissions.status, result: submissions.result })
    .from(submissions)
    .where(eq(submissions.id, ((await res.json()) as SubmissionStatus).submission.id));
  if (settled?.status !== 'accepted') throw new Error(`verified submission was ${settled?.status}: ${JSON.stringify(settled?.result)}`);

  // The storage transaction alone (what remains once episodes are verified), repeated, each run on a ticket of its seeds.
  const batches = smokeOr(20, 2);
  t = performance.now();
  for (let i = 0; i < batches; i++) {
    const ticketId = await fakeTicket(db, token.id, records);
    await storeRun(db, {
      clientId: `bench-store-${i}`,
      tokenId: token.id,
      agent: `bench-store-${i % 5}`,
      kind: 'evaluation',
      settings: { observation: ['state'] },
      bodyHash: String(i),
      ticketId,
      receivedAt: new Date(),
      episodes: records.map((record) => ({ record, claimed: { browser: record.browser }, reason: 'bench' })),
    });
  }
  const storeS = (performance.now() - t) / 1000;
  return {
    verify_eps_per_s: round(records.length / verifiedS, 2),
    verify_steps_per_s: round(steps / verifiedS, 0),
    ingest_eps_per_s: round((batches * records.length) / storeS, 1),
    episode_record_kb: round(JSON.stringify(records[0]).length / 1024, 1),
  };
}

/** Turns verification and the gym take in benchVerifyVsGym. */
const VERIFY_VS_GYM_ROUNDS = Number(process.env.BENCH_VERIFY_ROUNDS ?? smokeOr(4, 1));

/**
 * Re-simulation on the gym's own path (batched pages, gym/verify/verify-many.ts) against the
 * gym's aggregate steps/s on the same machine in the same run: verifying a suite should run
 * near the rate the gym plays it. The gym is bench:gym's batched aggregate (a BatchedVectorEnv
 * of two pages per core at the game's measured instances per page, the Snake cycle policy that
 * keeps episodes long: `gym_steps_per_s`), and the same env with episodes as long as the
 * verified ones on average, so that it pays a reset (a frame reload) per episode as verification
 * pays a load (`gym_steps_per_s_same_lengths`). The three take turns, each gym turn as long as the
 * verification turn before it, so the machine's changing load falls on all alike.
 */
async function benchVerifyVsGym(records: EpisodeRecord[], browser: Browser) {
  const steps = records.reduce((a, r) => a + r.steps.length, 0);
  const game = getGame('snake');
  const cores = os.availableParallelism();
  const env = { observation: ['state' as const], pixels: { width: 84, height: 84, grayscale: true }, deviceScaleFactor: 1 };
  const perPage = await measuredInstancesPerPage(game, browser, { numEnvs: Number.MAX_SAFE_INTEGER, env });
  const numEnvs = 2 * cores * perPage;
  const pool = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 4 * cores, healthIntervalMs: 0 });
  const gyms = [1_000_000, Math.max(1, Math.round(steps / records.length))].map((maxSteps) => {
    const v = new BatchedVectorEnv({ game: 'snake', numEnvs, seed: 1, observation: 'state', maxSteps, instancesPerPage: perPage, pool });
    return { v, observations: [] as { state?: VerifierState }[], steps: 0, seconds: 0 };
  });
  try {
    for (const g of gyms) {
      g.observations = (await g.v.reset()).observations;
      for (let i = 0; i < 10; i++) g.observations = (await g.v.step(g.observations.map((o) => cyclePolicy(o.state!)))).observations;
    }
    await verifyEpisodes(records.slice(0, 2), browser);
    let verifyS = 0;
    for (let round = 0; round < VERIFY_VS_GYM_ROUNDS; round++) {
      const t = performance.now();
      const results = await verifyEpisodes(records, browser);
      const turn = performance.now() - t;
      verifyS += turn / 1000;
      const bad = results.findIndex((r) => !r.ok);
      if (bad >= 0) throw new Error(`batched verification refused genuine episode ${bad}: ${JSON.stringify(results[bad])}`);
      for (const g of gyms) {
        const t0 = performance.now();
        while (performance.now() - t0 < turn) {
          g.observations = (await g.v.step(g.observations.map((o) => cyclePolicy(o.state!)))).observations;
          g.steps += numEnvs;
        }
        g.seconds += (performance.now() - t0) / 1000;
      }
    }
    const verifyRate = (VERIFY_VS_GYM_ROUNDS * steps) / verifyS;
    const [long, same] = gyms.map((g) => g.steps / g.seconds);
    return {
      verify_steps_per_s: round(verifyRate, 0),
      gym_steps_per_s: round(long, 0),
      gym_steps_per_s_same_lengths: round(same, 0),
      gym_envs: numEnvs,
      verify_vs_gym: round(verifyRate / long, 2),
      verify_vs_gym_same_lengths: round(verifyRate / same, 2),
    };
  } finally {
    for (const g of gyms) await g.v.close();
    await pool.close();
  }
}

/** 1,000 agents × 20 games × 3 seeds, inserted in bulk (only the read path is timed). */
async function fillLarge(db: Db) {
  const games = Array.from({ length: GAMES }, (_, i) => fakeGame(`bench-${String(i).padStart(2, '0')}`, { human: 100 + i * 10, suites: ['core'] }));
  await syncGames(db, fakeCatalog(games));
  const t = performance.now();
  const agentRows = await db
    .insert(agents)
    .values(
      Array.from({ length: AGENTS }, (_, i) => ({
        name: `agent-${String(i).padStart(4, '0')}`,
        canonicalName: `agent-${String(i).padStart(4, '0')}`,
        kind: 'submitted' as const,
        settings: {
          observation: ['state'],
          actionSpace: 'discrete' as const,
          stepBudget: 100,
          msPerStep: 100,
          official: true,
          harness: 'bench',
          model: null,
          codeVersion: null,
        },
      })),
    )
    .returning({ id: agents.id });
  // Agent 0 plays the random baseline's part: it gives every game a random reference.
  await db.update(agents).set({ name: 'random', kind: 'baseline' }).where(eq(agents.id, agentRows[0].id));
  await db.insert(runs).values(
    agentRows.map((a) => ({
      id: `00000000-0000-0000-0000-${String(a.id).padStart(12, '0')}`,
      clientId: `bench-${a.id}`,
      agentId: a.id,
      kind: 'evaluation' as const,
      observation: ['state'],
      actionSpace: 'discrete' as const,
      stepBudget: 100,
      msPerStep: 100,
      official: true,
      gameIds: games.map((g) => g.manifest.id),
      bodyHash: 'x',
      response: {},
      episodeCount: GAMES * SEEDS,
    })),
  );
  let rng = 12345;
  const rand = () => (rng = (rng * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const rows: (typeof episodes.$inferInsert)[] = [];
  for (const [ai, a] of agentRows.entries()) {
    // A few agents skip a game or a seed, so incomplete entries exist as they would.
    const skip = ai % 97 === 5 ? 3 : -1;
    for (const [gi, g] of games.entries()) {
      if (gi === skip) continue;
      for (let seed = 0; seed < (ai % 89 === 7 && gi === 0 ? 2 : SEEDS); seed++) {
        rows.push({
          runId: `00000000-0000-0000-0000-${String(a.id).padStart(12, '0')}`,
          agentId: a.id,
          gameId: g.manifest.id,
          gameVersion: '1.0.0',
          verifierChecksum: g.verifierChecksum,
          seed,
          score: Math.floor(rand() * 300),
          length: 100,
          terminated: false,
          truncated: true,
          stepBudget: 100,
          msPerStep: 100,
          eligible: true,
          ranked: true,
          verification: 'verified',
          verificationReason: 'bench',
        });
      }
    }
  }
  for (let i = 0; i < rows.length; i += 1000) await db.insert(episodes).values(rows.slice(i, i + 1000));
  const ids = agentRows.map((a) => a.id);
  const gameIds = games.map((g) => g.manifest.id);
  await refreshCells(db, ids, gameIds);
  await refreshReferences(db, gameIds);
  await refreshSuites(db, ids);
  return { episodes: rows.length, fill_s: round((performance.now() - t) / 1000, 1) };
}

/** What the page does per request: the query, then rendering the table to HTML. */
async function pageTime(db: Db, q: LeaderboardQuery): Promise<{ ms: number; queryMs: number; rows: number; htmlKb: number }> {
  const render = await renderer();
  const times: number[] = [];
  const queries: number[] = [];
  let html = '';
  let rows = 0;
  for (let i = 0; i < REPEATS + 2; i++) {
    const t0 = performance.now();
    // Every entry: the synthetic runs are known-seed tickets, which the default view leaves out.
    const data = await loadLeaderboard(db, { play: 'any', ...q });
    const t1 = performance.now();
    html = render(data);
    const t2 = performance.now();
    rows = data.rows.length;
    if (i >= 2) {
      times.push(t2 - t0);
      queries.push(t1 - t0);
    }
  }
  return { ms: round(median(times)), queryMs: round(median(queries)), rows, htmlKb: round(html.length / 1024) };
}

async function benchLeaderboard(database: Database) {
  // "fast with an empty and with a large database": the same page on a fresh database first.
  const empty = await pageTime(database.db, { suite: 'core' });
  const fill = await fillLarge(database.db);
  log(`${database.driver}: filled ${fill.episodes} episodes of ${AGENTS} agents × ${GAMES} games in ${fill.fill_s} s`);
  const first = await pageTime(database.db, { suite: 'core' });
  const byGame = await pageTime(database.db, { suite: 'core', sort: 'game:bench-07' });
  const deep = await pageTime(database.db, { suite: 'core', sort: 'name', page: 15 });
  log(
    `${database.driver}: leaderboard page ${first.ms} ms (query ${first.queryMs} ms, ${first.rows} rows, ${first.htmlKb} KB HTML); sorted by a game ${byGame.ms} ms; page 15 by name ${deep.ms} ms; empty database ${empty.ms} ms`,
  );
  return { first, byGame, deep, empty };
}

async function withDatabase<T>(open: () => Promise<Database>, fn: (d: Database) => Promise<T>): Promise<T> {
  const d = await open();
  try {
    return await fn(d);
  } finally {
    await d.close();
  }
}

async function main() {
  const browser = await launchBrowser();
  let records: EpisodeRecord[];
  try {
    records = await genuineEpisodes(
      browser,
      Array.from({ length: SUBMITTED_EPISODES }, (_, i) => i),
    );
  } catch (e) {
    await browser.close();
    throw new Error(`bench:db needs the Snake game built (npm run build:games): ${e instanceof Error ? e.message : e}`);
  }
  log(
    `${records.length} genuine Snake episodes (${records.reduce((a, r) => a + r.steps.length, 0)} steps) to replay; submissions play a ticket's seeds on each driver`,
  );

  const result: Record<string, unknown> = {};
  try {
    const verifyVsGym = await benchVerifyVsGym(records, browser);
    log('batched verification vs the gym:', verifyVsGym);
    Object.assign(result, verifyVsGym, { load_avg_1m: +os.loadavg()[0].toFixed(2) });
    if (process.env.BENCH_ONLY === 'verify') {
      console.log(JSON.stringify(result));
      return;
    }
    const lite = await withDatabase(
      () => openDatabase({ dataDir: 'memory' }),
      (d) => benchIngest(d.db, browser),
    );
    log('pglite ingest:', lite);
    const liteBoard = await withDatabase(() => openDatabase({ dataDir: 'memory' }), benchLeaderboard);
    Object.assign(result, {
      ingest_eps_per_s: lite.ingest_eps_per_s,
      verify_eps_per_s: lite.verify_eps_per_s,
      leaderboard_ms_pglite: liteBoard.first.ms,
      // Through the submission handler and the queue on batched pages, as the server verifies (verify_steps_per_s: verifyEpisodes alone).
      handler_verify_steps_per_s: lite.verify_steps_per_s,
      leaderboard_query_ms_pglite: liteBoard.first.queryMs,
      leaderboard_sorted_by_game_ms_pglite: liteBoard.byGame.ms,
      leaderboard_page15_ms_pglite: liteBoard.deep.ms,
      leaderboard_empty_db_ms_pglite: liteBoard.empty.ms,
      episode_record_kb: lite.episode_record_kb,
    });

    const server = await postgresServer();
    if (!server) {
      Object.assign(result, { ingest_eps_per_s_postgres: null, verify_eps_per_s_postgres: null, leaderboard_ms_postgres: null });
    } else {
      try {
        const a = await createScratchDatabase(server.url, 'arcade_bench');
        const b = await createScratchDatabase(server.url, 'arcade_bench');
        try {
          const pg = await withDatabase(
            () => openDatabase({ url: a.url }),
            (d) => benchIngest(d.db, browser),
          );
          log('postgres ingest:', pg);
          const pgBoard = await withDatabase(() => openDatabase({ url: b.url }), benchLeaderboard);
          Object.assign(result, {
            leaderboard_ms_postgres: pgBoard.first.ms,
            ingest_eps_per_s_postgres: pg.ingest_eps_per_s,
            verify_eps_per_s_postgres: pg.verify_eps_per_s,
            leaderboard_query_ms_postgres: pgBoard.first.queryMs,
            leaderboard_sorted_by_game_ms_postgres: pgBoard.byGame.ms,
            leaderboard_page15_ms_postgres: pgBoard.deep.ms,
            leaderboard_empty_db_ms_postgres: pgBoard.empty.ms,
          });
        } finally {
          await a.drop();
          await b.drop();
        }
      } finally {
        server.stop();
      }
    }
  } finally {
    await browser.close();
  }
  Object.assign(result, { agents: AGENTS, games: GAMES, seeds: SEEDS, page_size: 50 });
  console.log(JSON.stringify(result));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
