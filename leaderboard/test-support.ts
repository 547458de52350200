/**
 * For the leaderboard's tests (and drizzle/tests): test databases, an in-memory PGlite always
 * and a fresh PostgreSQL database per test file when TEST_DATABASE_URL names a server (in CI the
 * PostgreSQL half is required: a missing URL fails the run instead of quietly testing one
 * driver); and a site's submission path, without its HTTP server or served on 127.0.0.1 for the CLI.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { loadCatalog } from '../gym/catalog';
import type { Catalog } from '../gym/schema';
import { ApiError, jsonResponse } from './api-error';
import { openDatabase, type Database, type Db, type Driver } from './db';
import { createScratchDatabase, type ScratchDatabase } from './pg-scratch';
import { migrationsDir } from './paths';
import { RateLimiter } from './rate-limit';
import { syncGames } from './games';
import { createSubmissionHandler, DEFAULT_VERIFY_BUDGET, loadSubmission, submissionStatus, type VerifyBudget } from './submissions';
import type { SubmissionStatus } from './submission-schema';
import type { LiveCallName } from './live-call';
import { LiveRoutes } from './live-routes';
import { type LiveHost, startLiveHost } from '../jobs/live-jobs';
import { memoryPglite, openJobQueue } from '../jobs/queue';
import { pgliteJobsSql } from '../jobs/sql';
import { PolicyRuns } from './policy-runs';
import type { JobQueue } from '../jobs/queue';
import { createTicketHandlers } from './ticket-api';
import { createVisitorPlayHandlers } from './visitor-play';
import { createHumanPlayerHandlers } from './human-player-api';
import type { PoolOptionsInput } from '../gym/pool';
import { InProcessVerificationQueue } from './verification-queue';
import { verifyAbortable, type VerifierBrowsers } from './verifier-browser';
import { browserJobRunner, verifySubmission, type VerifyEpisode } from './verify-run';

export interface TestDriver {
  driver: Driver;
  /** A new, empty, migrated database (PostgreSQL: a database of its own on the server). */
  open(): Promise<Database>;
  /** Runs the migrations again on what open() last created, as a second start of the app would. */
  migrateAgain(database: Database): Promise<void>;
  /** Drops what open() created. */
  cleanup(): Promise<void>;
}

export function pgliteDriver(): TestDriver {
  return {
    driver: 'pglite',
    open: () => openDatabase({ dataDir: 'memory' }),
    // An in-memory database cannot be reopened: run the migrator again on the live one.
    // (Reopening a data folder is tested in db.test.ts.)
    async migrateAgain(database) {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(database.db as never, { migrationsFolder: migrationsDir() });
    },
    cleanup: async () => undefined,
  };
}

export function postgresDriver(url: string): TestDriver {
  const created: ScratchDatabase[] = [];
  return {
    driver: 'postgres',
    async open() {
      const scratch = await createScratchDatabase(url, 'arcade_test');
      created.push(scratch);
      return openDatabase({ url: scratch.url });
    },
    async migrateAgain() {
      const again = await openDatabase({ url: created.at(-1)!.url });
      await again.close();
    },
    async cleanup() {
      for (const scratch of created.splice(0)) await scratch.drop();
    },
  };
}

/** The drivers to test here; registers a failing test when CI lacks PostgreSQL. */
export function testDrivers(): TestDriver[] {
  const url = process.env.TEST_DATABASE_URL;
  if (!url && process.env.CI) {
    it('has a PostgreSQL server to test against (TEST_DATABASE_URL)', () => {
      throw new Error('CI is set but TEST_DATABASE_URL is not: the PostgreSQL driver would go untested. .ci/run starts a server and sets it.');
    });
  }
  return url ? [pgliteDriver(), postgresDriver(url)] : [pgliteDriver()];
}

export { fakeCatalog, fakeGame, fakeRecord, fakeTicket } from './synthetic';

export interface TestSiteOptions {
  /** How episodes are replayed; or `browsers`: each job in a browser of its own, as the server does. */
  verify?: VerifyEpisode;
  browsers?: VerifierBrowsers;
  catalog?: () => Catalog;
  limiter?: RateLimiter;
  /** Visitors' tickets per address (default: no practical limit). */
  visitorLimiter?: RateLimiter;
  budget?: VerifyBudget;
  slots?: number;
  maxBytes?: number;
  ttlMs?: number;
  /** Serve live tickets, hosted by a worker of this process on a queue of its own, their sessions in browsers of this pool. */
  live?: { pool?: PoolOptionsInput; maxSessions?: number };
  /** Serve policy runs, played as eval jobs on this queue (by workers the test runs) with checkpoints kept in `dir`. */
  policy?: { jobs: JobQueue; dir: string };
}

/** What the web server wires up (leaderboard/server.ts), on a given database and verify function. */
export function testSite(db: Db, opts: TestSiteOptions) {
  const catalog = opts.catalog ?? loadCatalog;
  const queue = new InProcessVerificationQueue({ slots: opts.slots ?? 2, graceMs: 500 });
  if (opts.browsers) queue.start(browserJobRunner(db, opts.browsers));
  else if (opts.verify) queue.start((job, signal) => verifySubmission({ db, verify: opts.verify! }, job.submissionId, signal));
  else throw new Error('testSite: give verify or browsers');
  const deps = {
    db,
    catalog,
    queue,
    budget: opts.budget ?? DEFAULT_VERIFY_BUDGET,
    limiter: opts.limiter ?? new RateLimiter({ burst: 1000, perMinute: 1000 }),
    maxBytes: opts.maxBytes,
  };
  // Live tickets as the site plays them: jobs on a queue of their own (an in-memory PGlite), hosted by a worker of this process.
  let liveHost: Promise<{ jobs: JobQueue; host: LiveHost }> | null = null;
  const liveOptions = opts.live;
  const startLive = () =>
    (liveHost ??= (async () => {
      const jobs = await openJobQueue(pgliteJobsSql(await memoryPglite()));
      const host = await startLiveHost({ jobs, intake: deps, ...liveOptions, log: () => undefined });
      return { jobs, host };
    })());
  const live = liveOptions
    ? new LiveRoutes({ db, jobs: async () => (await startLive()).jobs, enqueued: () => void startLive().then(({ host }) => host.worker.poke()) })
    : null;
  const tickets = createTicketHandlers({ db, catalog, limiter: new RateLimiter({ burst: 1000, perMinute: 1000 }), ttlMs: opts.ttlMs, live });
  const policy = opts.policy;
  const policyRuns = policy
    ? new PolicyRuns({ intake: deps, jobs: async () => policy.jobs, dir: policy.dir, limiter: new RateLimiter({ burst: 1000, perMinute: 1000 }), pollMs: 100 })
    : null;
  const unlimited = () => new RateLimiter({ burst: 1000, perMinute: 1000 });
  return {
    deps,
    queue,
    handle: createSubmissionHandler(deps),
    tickets,
    visitorPlay: createVisitorPlayHandlers({ intake: deps, catalog, limiter: opts.visitorLimiter ?? unlimited(), allVisitors: unlimited(), ttlMs: opts.ttlMs }),
    humanPlayers: createHumanPlayerHandlers(db),
    live,
    /** The worker hosting live tickets, once the first was issued. */
    liveHost: async () => (await startLive()).host,
    policyRuns,
    /** The status document of a submission, as GET /api/submissions/<id> gives it. */
    async status(id: string): Promise<SubmissionStatus> {
      const row = await loadSubmission(db, id);
      if (!row) throw new Error(`no submission ${id}`);
      return submissionStatus(row, queue);
    },
    /** Waits for the queue to settle, then the status. */
    async settled(id: string): Promise<SubmissionStatus> {
      await queue.idle();
      return this.status(id);
    },
    close: async () => {
      if (liveHost) {
        const { jobs, host } = await liveHost;
        await host.stop();
        await jobs.close();
      }
      await policyRuns?.close();
      await queue.close();
    },
  };
}

export type TestSite = ReturnType<typeof testSite>;

/**
 * The site's API routes (tickets, runs, submission status: what `arcade-gym eval --server`,
 * `submit` and `train --submit` call) served over HTTP on 127.0.0.1, the way the Next.js route
 * handlers in app/api call the same functions.
 */
export async function serveTestSite(site: TestSite): Promise<{ url: string; close: () => Promise<void> }> {
  const route = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const ticket = /^\/api\/tickets\/([^/]+)$/.exec(pathname);
    const submission = /^\/api\/submissions\/([0-9a-f-]{36})$/.exec(pathname);
    if (pathname === '/api/tickets' && request.method === 'POST') return site.tickets.issue(request);
    if (ticket && request.method === 'GET') return site.tickets.read(request, decodeURIComponent(ticket[1]));
    if (pathname === '/api/runs' && request.method === 'POST') return site.handle(request);
    if (pathname === '/api/play/tickets' && request.method === 'POST') return site.visitorPlay.ticket(request);
    if (pathname === '/api/play/runs' && request.method === 'POST') return site.visitorPlay.run(request);
    if (pathname === '/api/admin/human-players') return request.method === 'POST' ? site.humanPlayers.decide(request) : site.humanPlayers.list(request);
    if (pathname === '/api/policy-runs' && site.policyRuns && request.method === 'POST') return site.policyRuns.submit(request);
    const live = /^\/api\/live\/([^/]+)\/(reset|step|claims|close)$/.exec(pathname);
    if (live && site.live && request.method === 'POST') return site.live.call(live[2] as LiveCallName, decodeURIComponent(live[1]), request);
    if (submission && request.method === 'GET') {
      const status = await site.status(submission[1]).catch(() => null);
      return status ? jsonResponse(200, status) : new ApiError('NOT_FOUND', `No submission ${submission[1]}`).toResponse();
    }
    return new ApiError('NOT_FOUND', `No route ${request.method} ${pathname}`).toResponse();
  };
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const answer = await route(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  };
  const server = createServer((req, res) => {
    serve(req, res).catch((e: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL', message: String(e) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/**
 * A POST to the site's API as `token`'s holder makes it (null or undefined: anonymous), with a
 * JSON body (a string is sent as it is). The host is never reached: handlers read the path.
 */
export function apiPost(path: string, body: unknown, token?: string | null, headers: Record<string, string> = {}): Request {
  return new Request(`http://arcade.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A GET of the site's API as `token`'s holder. */
export function apiGet(path: string, token: string): Request {
  return new Request(`http://arcade.test${path}`, { headers: { authorization: `Bearer ${token}` } });
}

export interface ServedSite {
  database: Database;
  db: Db;
  site: TestSite;
  /** The served routes' base URL (http://127.0.0.1:port). */
  url: string;
}

/**
 * A suite's site over HTTP: before its tests, a migrated database of `driver` with the catalog's
 * games, episodes verified by replay in `browser()`, the routes served on 127.0.0.1; all closed
 * after them. The fields are set once the suite's beforeAll has run.
 */
export function useServedSite(driver: TestDriver, browser: () => Promise<Browser>, opts: Omit<TestSiteOptions, 'verify' | 'browsers'> = {}): ServedSite {
  const served = {} as ServedSite;
  let http: Awaited<ReturnType<typeof serveTestSite>> | undefined;
  beforeAll(async () => {
    const verifier = await browser();
    served.database = await driver.open();
    served.db = served.database.db;
    await syncGames(served.db, loadCatalog());
    served.site = testSite(served.db, { verify: (record, signal) => verifyAbortable(record, verifier, signal), ...opts });
    http = await serveTestSite(served.site);
    served.url = http.url;
  }, 120_000);
  afterAll(async () => {
    await http?.close();
    await served.site?.close();
    await served.database?.close();
    await driver.cleanup();
  });
  return served;
}
