/**
 * Seeds the leaderboard database before the site starts (`npm start` runs it before
 * `next start`): the games of the built catalog with their references, and baseline entries
 * for the random, scripted and ppo-generic agents, computed by really running them on the seeds of a
 * server-issued ticket (3 per game) and submitted like any run: each episode is replayed by the
 * verification queue before it is stored, so no ranked row exists that the server did not replay.
 *
 * Work already done is skipped: each (agent, game build) is one run with a fixed id, stored in
 * one transaction, so an interrupted seed resumes where it stopped.
 *
 *   ARCADE_SEED_GAMES=snake,g2048   seed only these games (e.g. for end-to-end tests)
 *   ARCADE_SEED_AGENTS=random       only these baselines (default: random,scripted,ppo-generic)
 *   ARCADE_SEED=0                   only sync the games, run no baselines
 *   ARCADE_SEED_WORKERS=2           with DATABASE_URL: workers of this process on the job queue (default 1)
 *
 * With DATABASE_URL the baselines are jobs on the server's queue, which any `arcade-gym worker`
 * shares (jobs/seed-baselines.ts); on the embedded database they run here, one after another.
 */
import { launchBrowser } from '../gym/browser';
import { openJobQueue } from '../jobs/queue';
import { seedThroughQueue, type QueueSeedOptions } from '../jobs/seed-baselines';
import { postgresJobsSql } from '../jobs/sql';
import { loadCatalog } from '../gym/catalog';
import type { CatalogEntry } from '../gym/schema';
import { readAdminSecret } from '../leaderboard/admin-secret';
import { BASELINE_AGENTS } from '../leaderboard/aggregates';
import { callApi } from '../leaderboard/client';
import { openDatabase } from '../leaderboard/db';
import { DatabaseBusyError } from '../leaderboard/dir-lock';
import { syncGames } from '../leaderboard/games';
import { missingBaselines, playableBaselines, runBaselines, seedInProcess, type BaselineJob, type SeedReport } from '../leaderboard/seed';
import type { SubmissionStatus } from '../leaderboard/submission-schema';
import type { TicketJson } from '../leaderboard/tickets';

function printReport(report: SeedReport, started: number): void {
  console.log(
    `seed: baselines done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${report.ran} run, ${report.skipped} already there` +
      (report.failed.length
        ? `, ${report.failed.length} failed (${report.failed.map((f) => `${f.game}/${f.agent}: ${f.error.split('\n')[0]}`).join('; ')})`
        : ''),
  );
}

/**
 * The site already owns the embedded database (PGlite allows one process per folder): run the
 * agents here on tickets the site draws, and hand each finished baseline to the site, which
 * queues, replays and stores it like any submission. Authorised by the admin secret the site
 * keeps in the data folder.
 */
async function seedThroughServer(busy: DatabaseBusyError, games: CatalogEntry[], agents: readonly string[], started: number): Promise<number> {
  const secret = readAdminSecret();
  if (!busy.owner.url || !secret) {
    console.error(`seed: ${busy.message} It does not take requests; stop it first, or seed another folder with ARCADE_DATA_DIR.`);
    return 1;
  }
  const url = `${busy.owner.url}/api/admin/seed`;
  const post = <T>(body: unknown) =>
    callApi<T>(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` }, body: JSON.stringify(body) });
  const waitFor = async (status: SubmissionStatus): Promise<SubmissionStatus> => {
    for (const until = Date.now() + 600_000; status.submission.status === 'queued' || status.submission.status === 'verifying'; ) {
      if (Date.now() > until) throw new Error(`baseline submission ${status.submission.id} was not verified within 10 minutes`);
      await new Promise((r) => setTimeout(r, 500));
      status = (await callApi<SubmissionStatus>(`${busy.owner.url}${status.submission.statusUrl}`, { method: 'GET' })).body;
    }
    return status;
  };
  console.log(`seed: the site at ${busy.owner.url} owns the database; baselines run here and are handed to it`);
  const { body: plan } = await post<{ jobs: { agent: string; gameId: string }[]; skipped: number }>({
    action: 'plan',
    games: games.map((g) => g.manifest.id),
    agents,
  });
  if (process.env.ARCADE_SEED === '0') return 0;
  const jobs = playable(plan.jobs.map((j) => ({ agent: j.agent, game: games.find((g) => g.manifest.id === j.gameId)! })));
  const browser = await launchBrowser();
  try {
    const report = await runBaselines({
      jobs,
      browser,
      ticket: async (job) => (await post<{ ticket: TicketJson }>({ action: 'ticket', agent: job.agent, gameId: job.game.manifest.id })).body.ticket,
      submit: async (job, ticket, records, trained) =>
        waitFor(
          (
            await post<SubmissionStatus>({
              action: 'store',
              agent: job.agent,
              gameId: job.game.manifest.id,
              ticket: ticket.id,
              records,
              ...(trained ? { trained } : {}),
            })
          ).body,
        ),
      ...consoleProgress(),
    });
    printReport({ ...report, skipped: plan.skipped }, started);
  } finally {
    await browser.close();
  }
  return 0;
}

/** The jobs that can run; a game without a scripted agent is said once, before any work. */
function playable(all: BaselineJob[]): BaselineJob[] {
  const { jobs, notes } = playableBaselines(all);
  for (const note of notes) console.log(`seed: ${note}`);
  return jobs;
}

function consoleProgress() {
  const tty = process.stdout.isTTY;
  return {
    log: (line: string) => console.log(`${tty ? '\r\x1b[K' : ''}seed: ${line}`),
    progress: tty ? (line: string) => process.stdout.write(`\r\x1b[Kseed: ${line}`) : undefined,
  };
}

/**
 * On a PostgreSQL server the baselines are jobs on its queue (jobs/seed-baselines.ts): this
 * process plays and verifies them with ARCADE_SEED_WORKERS workers of its own (default 1; 0 leaves
 * them to `arcade-gym worker`s), and every worker on the database shares them.
 */
async function seedAsJobs(url: string, opts: Omit<QueueSeedOptions, 'jobs'>): Promise<Omit<SeedReport, 'skipped'>> {
  const workers = process.env.ARCADE_SEED_WORKERS ?? '1';
  if (!/^\d+$/.test(workers)) throw new Error(`ARCADE_SEED_WORKERS is "${workers}": give a whole number of workers (0 leaves the jobs to other workers)`);
  const jobs = await openJobQueue(await postgresJobsSql(url));
  try {
    return await seedThroughQueue({ ...opts, jobs, localWorkers: Number(workers) });
  } finally {
    await jobs.close();
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const catalog = loadCatalog();
  const only = process.env.ARCADE_SEED_GAMES?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only?.filter((id) => !catalog.games.some((g) => g.manifest.id === id)) ?? [];
  if (unknown.length) console.warn(`seed: ARCADE_SEED_GAMES names games that are not built: ${unknown.join(', ')}`);
  const games = only ? catalog.games.filter((g) => only.includes(g.manifest.id)) : catalog.games;
  const agents =
    process.env.ARCADE_SEED_AGENTS?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? BASELINE_AGENTS;

  let database;
  try {
    database = await openDatabase({ role: 'seed script (scripts/seed-db.ts)' });
  } catch (e) {
    if (!(e instanceof DatabaseBusyError)) throw e;
    return seedThroughServer(e, games, agents, started);
  }
  try {
    console.log(`seed: database ${database.driver} at ${database.location}`);
    const sync = await syncGames(database.db, catalog);
    console.log(
      `seed: ${catalog.games.length} games in the catalog (${sync.added.length} new, ${sync.changed.length} changed, ${sync.deactivated.length} no longer built)`,
    );
    if (process.env.ARCADE_SEED === '0') return 0;
    const db = database.db;
    const missing = await missingBaselines(db, games, agents);
    const jobs = playable(missing.jobs);
    const skipped = missing.skipped;
    const browser = await launchBrowser();
    try {
      const report =
        database.driver === 'postgres' && process.env.DATABASE_URL
          ? await seedAsJobs(process.env.DATABASE_URL, { db, catalog, browser, baselines: jobs, ...consoleProgress() })
          : await seedInProcess({ db, catalog, browser, jobs, ...consoleProgress() });
      printReport({ ...report, skipped }, started);
    } finally {
      await browser.close();
    }
    return 0;
  } finally {
    await database.close();
  }
}

if (process.argv[1]?.endsWith('seed-db.ts')) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      console.error('seed:', e);
      process.exitCode = 1;
    },
  );
}
