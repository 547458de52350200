/**
 * Live tickets played by worker processes (`arcade-gym worker --queues live,verify`) on a real
 * PostgreSQL server (TEST_DATABASE_URL), with the site's routes in this process hosting nothing
 * themselves. A worker takes the ticket's job and serves it at its own endpoint; killed with -9 in
 * the middle of an episode, the ticket moves to another worker within a lease; stopped with SIGTERM,
 * at once. Either way the episode cut off, which its player had seen part of, is played again on a
 * fresh seed, never its own, and the player loses nothing: the whole ticket is verified and ranked.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { liveEpisodes, tickets } from '../drizzle/schema';
import { loadCatalog } from '../gym/catalog';
import { openDatabase, type Database } from '../leaderboard/db';
import { syncGames } from '../leaderboard/games';
import { localLivePlay } from '../leaderboard/live-listener';
import { LiveRoutes } from '../leaderboard/live-routes';
import { createScratchDatabase, type ScratchDatabase } from '../leaderboard/pg-scratch';
import { RateLimiter } from '../leaderboard/rate-limit';
import { loadSubmission, submissionStatus } from '../leaderboard/submissions';
import { apiPost } from '../leaderboard/test-support';
import { createTicketHandlers } from '../leaderboard/ticket-api';
import type { TicketJson } from '../leaderboard/ticket-schema';
import { createToken } from '../leaderboard/tokens';
import { openJobQueue, type JobQueue } from './queue';
import { postgresJobsSql } from './sql';
import { killWorkers, spawnWorkerProcess, until, type WorkerProcess } from './test-drivers';
import { JobVerificationQueue } from './verify-jobs';

const SERVER = process.env.TEST_DATABASE_URL;
const GAME = 'snake';

interface Spawned extends WorkerProcess {
  /** The base URL of its live listener, once it listens. */
  url: Promise<string>;
}

function spawnLiveWorker(dbUrl: string): Spawned {
  const w = spawnWorkerProcess(dbUrl, ['--queues', 'live,verify', '--poll-ms', '200', '--health-s', '2', '--live-tickets', '4'], { ARCADE_LIVE_LEASE_S: '3' });
  const url = until(
    'the worker to listen',
    async () => /live tickets at (\S+)/.exec(w.log())?.[1] ?? (w.child.exitCode !== null ? `exited: ${w.log()}` : null),
    180_000,
  );
  url.catch(() => undefined);
  return { ...w, url };
}

describe.skipIf(!SERVER)('live tickets on worker processes (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let database: Database;
  let jobs: JobQueue;
  let routes: LiveRoutes;
  let site: ReturnType<typeof createTicketHandlers>;
  const workers: Spawned[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase(SERVER!, 'arcade_live_workers');
    database = await openDatabase({ url: scratch.url });
    await syncGames(database.db, loadCatalog());
    jobs = await openJobQueue(await postgresJobsSql(scratch.url), { maintenanceIntervalSeconds: 1 });
    routes = new LiveRoutes({ db: database.db, jobs: async () => jobs, hostWaitMs: 60_000 });
    site = createTicketHandlers({ db: database.db, catalog: loadCatalog, limiter: new RateLimiter({ burst: 100, perMinute: 100 }), live: routes });
  }, 120_000);

  afterEach(() => killWorkers(workers));

  afterAll(async () => {
    await jobs?.close();
    await database?.close();
    await scratch?.drop();
  });

  it('moves a ticket to another worker when one dies or stops, and plays the episode cut off again on a fresh seed', async () => {
    const { token } = await createToken(database.db, { name: 'live on workers' });
    const auth = { authorization: `Bearer ${token}` };
    const a = spawnLiveWorker(scratch.url);
    workers.push(a);
    const aUrl = await a.url;
    expect(aUrl, a.log()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const issued = await site.issue(apiPost('/api/tickets', { game: GAME, seedsPerGame: 3, mode: 'live', agent: 'moved-live', observation: ['state'] }, token));
    const ticket = ((await issued.json()) as { ticket: TicketJson }).ticket;
    // Hosted by the worker process, not by anything in this one.
    expect(ticket.live?.endpoint).toBe(`${aUrl}/live/${ticket.id}`);
    expect(localLivePlay(aUrl)).toBeUndefined();
    const seen: string[] = [];
    // biome-ignore lint/suspicious/noExplicitAny: answers read field by field by the assertions
    type Answer = { status: number; body: Record<string, any> };
    const direct = async (endpoint: string, what: string, body: unknown): Promise<Answer> => {
      const res = await fetch(`${endpoint}/${what}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      const text = await res.text();
      seen.push(text);
      return { status: res.status, body: JSON.parse(text) };
    };
    const viaSite = async (what: 'reset' | 'step', body: unknown): Promise<Answer> => {
      const res = await routes.call(what, ticket.id, apiPost(`/api/live/${ticket.id}/${what}`, body, token));
      const text = await res.text();
      seen.push(text);
      return { status: res.status, body: JSON.parse(text) };
    };
    const playToEnd = async (step: (action: number) => Promise<Answer>) => {
      for (let i = 0; ; i++) {
        const r = await step(i % 4);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        if (r.body.terminated || r.body.truncated) return r;
      }
    };
    const hostOf = async () => (await database.db.select().from(tickets).where(eq(tickets.id, ticket.id)))[0].live?.host?.url;

    const seedsNow = async () => (await database.db.select().from(tickets).where(eq(tickets.id, ticket.id)))[0].games[0].seeds;
    const issuedSeeds = await seedsNow();

    // Episode 0 to its end and episode 1 begun, on worker A, at its endpoint.
    const endpointA = ticket.live!.endpoint!;
    expect((await direct(endpointA, 'reset', {})).body.info.episode.position).toBe(0);
    await playToEnd((action) => direct(endpointA, 'step', { action }));
    expect((await direct(endpointA, 'reset', {})).body.info.episode.position).toBe(1);
    for (let i = 0; i < 3; i++) expect((await direct(endpointA, 'step', { action: i })).status).toBe(200);

    // A dies mid-episode. B takes the ticket once A's lease runs out; episode 1, seen in part, gets a fresh seed.
    a.child.kill('SIGKILL');
    await a.exited;
    const b = spawnLiveWorker(scratch.url);
    workers.push(b);
    const bUrl = await b.url;
    await until('the ticket to move to worker B', async () => (await hostOf()) === bUrl, 60_000);
    const afterA = await seedsNow();
    expect(afterA[0]).toBe(issuedSeeds[0]);
    expect(afterA[1]).not.toBe(issuedSeeds[1]);
    expect(afterA[2]).toBe(issuedSeeds[2]);
    const again = await viaSite('reset', {});
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.info.episode.position).toBe(1);
    expect((await viaSite('step', { action: 1 })).status).toBe(200);

    // B is stopped (SIGTERM) mid-episode: it hands the ticket back at once, and C plays episode 1 on yet another seed, then the rest.
    b.child.kill('SIGTERM');
    expect(await b.exited, b.log()).toBe(0);
    const c = spawnLiveWorker(scratch.url);
    workers.push(c);
    const cUrl = await c.url;
    await until('the ticket to move to worker C', async () => (await hostOf()) === cUrl, 60_000);
    const afterB = await seedsNow();
    expect(new Set([issuedSeeds[1], afterA[1], afterB[1]]).size).toBe(3);
    expect((await viaSite('reset', {})).body.info.episode.position).toBe(1);
    await playToEnd((action) => viaSite('step', { action }));
    expect((await viaSite('reset', {})).body.info.episode.position).toBe(2);
    const last = await playToEnd((action) => viaSite('step', { action }));
    const closed = last.body.info.ticket;
    expect(closed.live.closed).toBe(true);
    expect(closed.live.episodes.map((e: { ended: boolean }) => e.ended)).toEqual([true, true, true]);
    expect(closed.games[0].seeds).toEqual(afterB);

    const [row] = await database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row.live?.redrawn?.map((r) => [r.position, r.seed])).toEqual([
      [1, issuedSeeds[1]],
      [1, afterA[1]],
    ]);
    const stored = await database.db.select().from(liveEpisodes).where(eq(liveEpisodes.ticketId, ticket.id));
    expect(stored.map((e) => [e.position, e.cause?.code ?? null]).sort()).toEqual([
      [0, null],
      [1, null],
      [2, null],
    ]);
    seen.pop(); // the closing answer shows the seeds, as it may
    for (const text of seen)
      for (const seed of [...issuedSeeds, ...afterA, ...afterB]) expect(text.includes(String(seed)), `seed ${seed} in an answer`).toBe(false);

    // The three episodes, on the seeds the ticket ends with, are replayed by worker C's verification and ranked.
    const submissionId = closed.submission.submission.id as string;
    const status = await until(
      'the run to be verified',
      async () => {
        const settled = await submissionStatus((await loadSubmission(database.db, submissionId))!, new JobVerificationQueue(jobs, database.db));
        return settled.submission.status === 'accepted' || settled.submission.status === 'rejected' ? settled : null;
      },
      180_000,
    );
    expect(status.submission.status, JSON.stringify(status.error)).toBe('accepted');
    expect(status.result?.run.ranked, JSON.stringify(status.result)).toBe(3);
    expect(status.result?.episodes.map((e) => e.seed)).toEqual(afterB);
  }, 600_000);
});
