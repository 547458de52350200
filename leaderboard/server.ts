/**
 * The web server's database, submission and ticket handlers and verification queue: one per
 * process, whichever Next.js bundle asks (module state is not shared between route bundles,
 * globalThis is). The server process owns the embedded database folder for as long as it runs.
 */
import path from 'node:path';
import { loadCatalog } from '../gym/catalog';
import { ArcadeGymError } from '../gym/errors';
import { writeAdminSecret } from './admin-secret';
import { openDatabase, type Database } from './db';
import { DatabaseBusyError } from './dir-lock';
import { syncGames } from './games';
import { RateLimiter, rateLimitFromEnv } from './rate-limit';
import { createSubmissionHandler, requeuePending, verifyBudgetFromEnv, type IntakeDeps } from './submissions';
import { LiveRoutes } from './live-routes';
import { dataDir } from './paths';
import { PolicyRuns } from './policy-runs';
import { createTicketHandlers } from './ticket-api';
import { createVisitorPlayHandlers } from './visitor-play';
import { createHumanPlayerHandlers } from './human-player-api';
import { ticketTtlMsFromEnv } from './tickets';
import { verifierBrowsers } from './verifier-browser';
import { InProcessVerificationQueue, type VerificationQueue } from './verification-queue';
import { browserJobRunner } from './verify-run';
import { maxSubmissionBytesFromEnv } from './submission-limit';

export interface ServerContext {
  database: Database;
  /** What intake() needs: the baselines the seed script hands over enter the same way as submissions. */
  intake: IntakeDeps;
  handleSubmission: (request: Request) => Promise<Response>;
  tickets: ReturnType<typeof createTicketHandlers>;
  /** Live tickets: their jobs on the site's queue, and the route that forwards calls to the worker hosting each. */
  live: LiveRoutes;
  /** Policy runs: checkpoints played as eval jobs on the site's queue (a worker of this process plays them too). */
  policyRuns: PolicyRuns;
  /** Human reference play by visitors of /play, and the admin's decisions on its players. */
  visitorPlay: ReturnType<typeof createVisitorPlayHandlers>;
  humanPlayers: ReturnType<typeof createHumanPlayerHandlers>;
}

const KEY = Symbol.for('arcade-gym.server-context');
const g = globalThis as Record<symbol, Promise<ServerContext> | undefined>;

/** Where this server answers, recorded in the database lock so CLI tools can find it. */
function ownUrl(): string | undefined {
  return process.env.__NEXT_PRIVATE_ORIGIN || (process.env.PORT ? `http://127.0.0.1:${process.env.PORT}` : undefined);
}

async function openOwned(): Promise<Database> {
  // A CLI command may hold the folder for a moment (creating a token before the server
  // first touched the database): wait for it rather than fail the request.
  for (let waited = 0; ; waited += 250) {
    try {
      return await openDatabase({ role: 'arcade-gym web server', serverUrl: ownUrl() });
    } catch (e) {
      if (!(e instanceof DatabaseBusyError) || waited >= 20_000) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function create(): Promise<ServerContext> {
  const database = await openOwned();
  if (database.driver === 'pglite') writeAdminSecret();
  try {
    await syncGames(database.db, loadCatalog());
  } catch (e) {
    // Pages still work on what the database holds; submissions will say the game is unknown.
    if (!(e instanceof ArcadeGymError)) throw e;
    console.warn(`arcade-gym: ${e.message}`);
  }
  // Verification as jobs (jobs/verify-jobs.ts) on the site's own database, embedded or a server
  // (where workers on other machines share them), with a worker in this process either way.
  const slots = Number(process.env.ARCADE_VERIFY_SLOTS) || 2;
  const mode = process.env.ARCADE_VERIFY_QUEUE ?? 'jobs';
  if (mode !== 'jobs' && mode !== 'in-process') throw new Error(`ARCADE_VERIFY_QUEUE is "${mode}": it may be jobs (the default) or in-process`);
  const { JobVerificationQueue, onceStored } = await import('../jobs/verify-jobs');
  const runner = browserJobRunner(database.db, verifierBrowsers());
  let queue: VerificationQueue;
  if (mode === 'jobs') {
    queue = new JobVerificationQueue(await (await import('../jobs/site')).siteJobQueue(database), database.db, { slots });
    queue.start(runner);
  } else {
    queue = new InProcessVerificationQueue({ slots });
    queue.start(onceStored(database.db, runner));
  }
  const requeued = await requeuePending(database.db, queue);
  if (requeued) console.log(`arcade-gym: ${requeued} submission${requeued === 1 ? '' : 's'} queued again for verification`);
  const intake: IntakeDeps = { db: database.db, catalog: loadCatalog, queue, budget: verifyBudgetFromEnv() };
  const handleSubmission = createSubmissionHandler({
    ...intake,
    limiter: new RateLimiter(rateLimitFromEnv()),
    maxBytes: maxSubmissionBytesFromEnv(),
  });
  const siteJobs = async () => (await import('../jobs/site')).siteJobQueue(database);
  const liveHost = await startSiteLiveHost(intake, siteJobs);
  const live = new LiveRoutes({ db: database.db, jobs: siteJobs, enqueued: () => liveHost?.worker.poke() });
  const tickets = createTicketHandlers({
    db: database.db,
    catalog: loadCatalog,
    limiter: new RateLimiter(rateLimitFromEnv(process.env.ARCADE_TICKET_RATE_LIMIT, { burst: 30, perMinute: 30 })),
    ttlMs: ticketTtlMsFromEnv(),
    live,
  });
  const policyRuns = new PolicyRuns({
    intake,
    jobs: async () => {
      const { siteJobQueue } = await import('../jobs/site');
      return siteJobQueue(database);
    },
    dir: path.join(dataDir(), 'policy-runs'),
    limiter: new RateLimiter(rateLimitFromEnv(process.env.ARCADE_POLICY_RUN_RATE_LIMIT, { burst: 5, perMinute: 2 })),
    ttlMs: ticketTtlMsFromEnv(),
  });
  await startSiteEvalWorker(database);
  const resumed = await policyRuns.resume();
  if (resumed) console.log(`arcade-gym: following ${resumed} policy run${resumed === 1 ? '' : 's'} again`);
  const visitorPlay = createVisitorPlayHandlers({
    intake,
    catalog: loadCatalog,
    limiter: new RateLimiter(rateLimitFromEnv(process.env.ARCADE_VISITOR_RATE_LIMIT, { burst: 10, perMinute: 4 })),
    allVisitors: new RateLimiter(rateLimitFromEnv(process.env.ARCADE_ALL_VISITORS_RATE_LIMIT, { burst: 60, perMinute: 60 })),
    ttlMs: ticketTtlMsFromEnv(),
  });
  return { database, intake, handleSubmission, tickets, live, policyRuns, visitorPlay, humanPlayers: createHumanPlayerHandlers(database.db) };
}

/**
 * The site's own host of live tickets (ARCADE_SITE_LIVE_TICKETS at once, default 16; 0 leaves them
 * to `arcade-gym worker`s on the database), with its listener on ARCADE_LIVE_HOST:ARCADE_LIVE_PORT
 * (default 127.0.0.1, any free port), reached by players at ARCADE_LIVE_PUBLIC_URL if set; its
 * sessions ARCADE_LIVE_SESSIONS at once (default 16).
 */
async function startSiteLiveHost(intake: IntakeDeps, siteJobs: () => Promise<import('../jobs/queue').JobQueue>) {
  const n = Number(process.env.ARCADE_SITE_LIVE_TICKETS ?? 16);
  if (!Number.isInteger(n) || n < 0) throw new Error(`ARCADE_SITE_LIVE_TICKETS is "${process.env.ARCADE_SITE_LIVE_TICKETS}": give a whole number`);
  if (n === 0) return null;
  const jobs = await siteJobs();
  const [{ startLiveHost }, { releaseActiveJobs }] = await Promise.all([import('../jobs/live-jobs'), import('../jobs/queue')]);
  // On the embedded database only this process plays: a live job still active was held by a site process that is gone.
  if (jobs.sql.driver === 'pglite') await releaseActiveJobs(jobs, 'live', 'the process that held it is gone (the site restarted)');
  const host = await startLiveHost({
    jobs,
    intake,
    maxSessions: Number(process.env.ARCADE_LIVE_SESSIONS) || 16,
    tickets: n,
    listen: {
      host: process.env.ARCADE_LIVE_HOST || '127.0.0.1',
      port: Number(process.env.ARCADE_LIVE_PORT) || 0,
      publicUrl: process.env.ARCADE_LIVE_PUBLIC_URL || undefined,
    },
  });
  process.once('SIGTERM', () => void host.stop());
  return host;
}

/**
 * The site's own player of eval jobs (policy runs; any `eval --queue` on its database too): with
 * ARCADE_SITE_EVAL_WORKERS (default 1; 0 leaves them to `arcade-gym worker`s on the database).
 */
async function startSiteEvalWorker(database: Database): Promise<void> {
  const n = Number(process.env.ARCADE_SITE_EVAL_WORKERS ?? 1);
  if (!Number.isInteger(n) || n < 0) throw new Error(`ARCADE_SITE_EVAL_WORKERS is "${process.env.ARCADE_SITE_EVAL_WORKERS}": give a whole number`);
  if (n === 0) return;
  const [{ siteJobQueue }, { Worker }, { browserProvider, evalBatchHandler }] = await Promise.all([
    import('../jobs/site'),
    import('../jobs/worker'),
    import('../jobs/handlers'),
  ]);
  const browsers = browserProvider();
  const worker = new Worker({
    jobs: await siteJobQueue(database),
    queues: ['eval'],
    handlers: { eval: evalBatchHandler(() => browsers.get()) },
    concurrency: n,
  });
  await worker.start();
  process.once('SIGTERM', () => void worker.stop().then(() => browsers.close()));
}

export function serverContext(): Promise<ServerContext> {
  let ctx = g[KEY];
  if (!ctx) {
    ctx = create();
    g[KEY] = ctx;
    // A failed start (say, the folder is taken) is retried by the next request, not cached.
    ctx.catch(() => {
      if (g[KEY] === ctx) g[KEY] = undefined;
    });
  }
  return ctx;
}

export async function serverDb() {
  return (await serverContext()).database.db;
}
