/**
 * The submission protocol end to end (minus the HTTP server), on PGlite and PostgreSQL: tickets,
 * 202 and the verification queue, replay of real Snake episodes in Chromium, what is stored and
 * what is ranked. Every kind of bad submission is refused with its reason, or stored unranked
 * with its reason, and nothing it sends overrides what the replay gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { agentGameStats, agents, episodeRecords, episodes, gameReferences, humanEpisodes, runs, submissions } from '../drizzle/schema';
import type { Database, Db } from './db';
import { syncGames } from './games';
import { loadLeaderboard, loadRun } from './queries';
import { RateLimiter } from './rate-limit';
import type { RunSubmissionInput, SubmissionStatus } from './submission-schema';
import { createToken } from './tokens';
import type { TicketJson } from './tickets';
import { verifyAbortable } from './verifier-browser';
import { DEFAULT_SEEDS_PER_GAME, MIN_SEEDS } from './scoring';
import { apiGet, apiPost, testDrivers, testSite } from './test-support';
import { getGame } from '../gym/catalog';
import { evaluateGame, replayActions } from '../gym/eval';
import { canonicalJson, type EpisodeRecord } from '../gym/schema';
import { useBrowser } from '../gym/testing';

const gym = useBrowser();
let browser: Browser;
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));
const MAX_BYTES = 2 * 1024 * 1024;

async function play(seeds: number[], agent = 'random'): Promise<EpisodeRecord[]> {
  return (await evaluateGame({ game: getGame('snake'), agent, seeds, observation: ['state'], browser })).episodes;
}

/** The first `steps` actions of an episode, replayed for real: a genuine record of an episode cut short. */
async function cut(record: EpisodeRecord, steps: number, opts: { deviceScaleFactor?: number } = {}): Promise<EpisodeRecord> {
  const env = await gym.env({ game: record.gameId, seed: record.seed, observation: 'state', deviceScaleFactor: opts.deviceScaleFactor });
  return replayActions(env, record.seed, record.actions.slice(0, steps) as number[]);
}

beforeAll(async () => {
  browser = await gym.browser();
});

for (const driver of testDrivers()) {
  describe(`${driver.driver}: POST /api/runs and tickets`, () => {
    let database: Database;
    let db: Db;
    let site: ReturnType<typeof testSite>;
    let tokens: Record<'user' | 'other' | 'admin', { token: string; id: number }>;
    let verifications = 0;
    /** A ticketed run of the random agent, and the ticket it played. */
    let ticket: TicketJson;
    let genuine: EpisodeRecord[];
    let acceptedId = '';

    const submission = (over: Partial<RunSubmissionInput> = {}): RunSubmissionInput => ({
      id: 'run-genuine-0001',
      agent: 'tester',
      settings: { observation: ['state'], harness: 'random', codeVersion: 'test' },
      ticket: ticket.id,
      episodes: genuine,
      ...over,
    });

    async function counts() {
      const n = async (t: typeof runs | typeof episodes | typeof episodeRecords | typeof agents | typeof agentGameStats | typeof humanEpisodes) =>
        (await db.select({ n: count() }).from(t))[0].n;
      return {
        runs: await n(runs),
        episodes: await n(episodes),
        records: await n(episodeRecords),
        agents: await n(agents),
        cells: await n(agentGameStats),
        human: await n(humanEpisodes),
      };
    }

    /** A ticket of `body`; by default 3 Snake seeds, few enough to play quickly and enough for a cell to count. */
    async function newTicket(who: keyof typeof tokens, body: Record<string, unknown> = { game: 'snake', seedsPerGame: MIN_SEEDS }): Promise<TicketJson> {
      const res = await site.tickets.issue(apiPost('/api/tickets', body, tokens[who].token));
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { ticket: TicketJson }).ticket;
    }

    /** Posts a submission; it must be queued (202), and is then verified: its settled status. */
    async function submit(body: RunSubmissionInput, who: keyof typeof tokens = 'user'): Promise<SubmissionStatus> {
      const res = await site.handle(apiPost('/api/runs', body, tokens[who].token));
      const queued = (await res.json()) as SubmissionStatus;
      expect(res.status, JSON.stringify(queued)).toBe(202);
      expect(queued.submission).toMatchObject({
        status: expect.stringMatching(/^(queued|verifying)$/),
        clientId: body.id,
        statusUrl: `/api/submissions/${queued.submission.id}`,
      });
      expect(res.headers.get('location')).toBe(queued.submission.statusUrl);
      return site.settled(queued.submission.id);
    }

    /** A refusal before anything is queued: this status and code, nothing stored. */
    async function expectRefused(req: Request, status: number, code: string) {
      const before = await counts();
      const res = await site.handle(req);
      const body = (await res.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } };
      expect({ status: res.status, code: body.error?.code }).toEqual({ status, code });
      expect(typeof body.error.message).toBe('string');
      expect(await counts()).toEqual(before);
      return { res, body };
    }

    /** Verified and rejected: the status names the code, and nothing was stored. */
    async function expectRejected(body: RunSubmissionInput, code: string) {
      const before = await counts();
      const status = await submit(body);
      expect(status.submission.status).toBe('rejected');
      expect(status.error?.code).toBe(code);
      expect(status.result).toBeUndefined();
      expect(await counts()).toEqual(before);
      return status.error!;
    }

    beforeAll(async () => {
      database = await driver.open();
      db = database.db;
      await syncGames(db, (await import('../gym/catalog')).loadCatalog());
      const make = async (name: string, admin = false) => {
        const t = await createToken(db, { name, admin });
        return { token: t.token, id: t.id };
      };
      tokens = { user: await make('user'), other: await make('other'), admin: await make('admin', true) };
      site = testSite(db, {
        verify: (r, signal) => {
          verifications++;
          return verifyAbortable(r, browser, signal);
        },
        maxBytes: MAX_BYTES,
      });
      ticket = await newTicket('user');
      genuine = await play(ticket.games[0].seeds);
    }, 600_000);

    afterAll(async () => {
      await site?.close();
      await database?.close();
      await driver.cleanup();
    });

    it('issues tickets of fresh seeds at the official settings, for the token that asked', async () => {
      expect(ticket.id).toMatch(/^tkt_/);
      expect(ticket.games).toEqual([
        {
          gameId: 'snake',
          gameVersion: getGame('snake').manifest.version,
          verifierChecksum: getGame('snake').verifierChecksum,
          stepBudget: 100,
          msPerStep: 100,
          viewport: { width: 400, height: 400 },
          deviceScaleFactor: 1,
          seeds: expect.any(Array),
        },
      ]);
      expect(new Set(ticket.games[0].seeds).size).toBe(3);
      // A ticket that does not say how many seeds gets the default, enough for useful intervals (a token
      // of its own: seeds drawn and never submitted count against the token's agents).
      const drawer = await createToken(db, { name: 'default-drawer' });
      const byDefault = await site.tickets.issue(apiPost('/api/tickets', { game: 'snake' }, drawer.token));
      expect(new Set(((await byDefault.json()) as { ticket: TicketJson }).ticket.games[0].seeds).size).toBe(DEFAULT_SEEDS_PER_GAME);
      expect(Date.parse(ticket.expiresAt) - Date.parse(ticket.createdAt)).toBe(24 * 3_600_000);
      const suite = await newTicket('other', { suite: 'core', seedsPerGame: 4 });
      expect(suite.games.length).toBeGreaterThan(1);
      expect(suite.games.every((g) => g.seeds.length === 4)).toBe(true);
      // No seed is drawn twice for a game.
      expect(suite.games.find((g) => g.gameId === 'snake')?.seeds.some((s) => ticket.games[0].seeds.includes(s))).toBe(false);
      // Another token cannot read it; its owner can.
      const read = (who: keyof typeof tokens) => site.tickets.read(apiGet(`/api/tickets/${ticket.id}`, tokens[who].token), ticket.id);
      expect((await read('user')).status).toBe(200);
      expect((await read('other')).status).toBe(404);
      expect((await site.tickets.issue(apiPost('/api/tickets', { suite: 'nope' }, tokens.user.token))).status).toBe(422);
      expect((await site.tickets.issue(apiPost('/api/tickets', { game: 'snake', suite: 'core' }, tokens.user.token))).status).toBe(400);
      expect((await site.tickets.issue(apiPost('/api/tickets', { game: 'snake', purpose: 'human' }, tokens.user.token))).status).toBe(403);
      expect((await site.tickets.issue(apiPost('/api/tickets', { game: 'snake' }, null))).status).toBe(401);
    });

    it('accepts a ticketed run after replaying every episode: 202, then the stored replay, ranked', async () => {
      const status = await submit(submission());
      expect(status.submission).toMatchObject({ status: 'accepted', verified: 3, episodes: 3, ticket: ticket.id, queuePosition: null });
      acceptedId = status.submission.id;
      expect(status.result?.run).toMatchObject({
        clientId: 'run-genuine-0001',
        agent: 'tester',
        episodes: 3,
        ranked: 3,
        ticket: ticket.id,
        unrankedReason: null,
        games: ['snake'],
      });
      expect(status.result?.episodes.map((e) => [e.verification, e.ranked, e.ticketed, e.unrankedReason])).toEqual(
        Array(3).fill(['verified', true, true, null]),
      );
      expect(verifications).toBe(3);
      expect(await counts()).toMatchObject({ runs: 1, episodes: 3, records: 3, agents: 1, cells: 1 });
      const stored = await db.select({ record: episodeRecords.record }).from(episodeRecords).orderBy(episodeRecords.episodeId);
      expect(stored.map((s) => canonicalJson(s.record))).toEqual(genuine.map(canonicalJson));
      const rows = await db.select({ replay: episodes.replay, claimed: episodes.claimed, ticketId: episodes.ticketId }).from(episodes);
      expect(
        rows.every((r) => r.ticketId === ticket.id && r.replay?.browser.version === browser.version() && r.claimed?.browser.version === browser.version()),
      ).toBe(true);
      const row = (await loadLeaderboard(db, { play: 'any', suite: 'all' })).rows.find((r) => r.agent.name === 'tester')!;
      const mean = genuine.reduce((a, e) => a + e.totals.score, 0) / 3;
      expect(row.cells.snake).toMatchObject({ seeds: 3, meanScore: mean, replayVerified: true, ticketed: true });
    });

    it('answers a retry of an accepted id from the stored answer, never with 429, storing nothing new', async () => {
      const limited = testSite(db, { verify: (r, s) => verifyAbortable(r, browser, s), limiter: new RateLimiter({ burst: 1, perMinute: 1 }, () => 0) });
      try {
        const before = await counts();
        // The bucket is spent by a new submission (refused later for its name, which does not matter here)...
        const spend = await limited.handle(apiPost('/api/runs', submission({ id: 'run-spends-the-bucket', ticket: undefined }), tokens.user.token));
        expect(spend.status).toBe(202);
        await limited.queue.idle();
        const after = await counts();
        // ...so a new id is limited, while retries of the accepted one are answered, however many.
        expect((await limited.handle(apiPost('/api/runs', submission({ id: 'run-another-new-one', ticket: undefined }), tokens.user.token))).status).toBe(429);
        for (let i = 0; i < 3; i++) {
          const res = await limited.handle(apiPost('/api/runs', submission(), tokens.user.token));
          expect(res.status).toBe(200);
          expect(res.headers.get('idempotent-replayed')).toBe('true');
          const body = (await res.json()) as SubmissionStatus;
          expect(body.submission).toMatchObject({ id: acceptedId, status: 'accepted' });
          expect(body.result?.run.ranked).toBe(3);
        }
        expect(await counts()).toEqual(after);
        expect(after.runs).toBe(before.runs + 1);
      } finally {
        await limited.close();
      }
    });

    it('refuses a different run under an id already used', async () => {
      await expectRefused(apiPost('/api/runs', submission({ agent: 'someone-else' }), tokens.user.token), 409, 'IDEMPOTENCY_CONFLICT');
    });

    it('uses a ticket once', async () => {
      const again = await expectRefused(apiPost('/api/runs', submission({ id: 'run-ticket-reused' }), tokens.user.token), 409, 'TICKET_USED');
      expect(again.body.error.details).toEqual({ ticket: ticket.id });
      // Another token's ticket is not found; a human-play ticket is not for an agent's run.
      const theirs = await newTicket('other');
      await expectRefused(apiPost('/api/runs', submission({ id: 'run-ticket-theirs', ticket: theirs.id }), tokens.user.token), 404, 'TICKET_NOT_FOUND');
      const human = await newTicket('admin', { game: 'snake', purpose: 'human' });
      await expectRefused(
        apiPost('/api/runs', submission({ id: 'run-ticket-human', agent: 'admin-bot', ticket: human.id }), tokens.admin.token),
        422,
        'TICKET_MISMATCH',
      );
    });

    it("answers an unknown ticket id with 404, as another token's ticket is, and stores no submission", async () => {
      const submissionsNow = async () => (await db.select({ n: count() }).from(submissions))[0].n;
      const before = await submissionsNow();
      const unknown = await expectRefused(
        apiPost('/api/runs', submission({ id: 'run-ticket-unknown', ticket: 'tkt_doesnotexist000' }), tokens.user.token),
        404,
        'TICKET_NOT_FOUND',
      );
      expect(unknown.body.error.details).toEqual({ ticket: 'tkt_doesnotexist000' });
      expect(await submissionsNow()).toBe(before);
      // Nothing half-stored either: the same id is new, so a retry is refused the same way (not answered from a row).
      await expectRefused(
        apiPost('/api/runs', submission({ id: 'run-ticket-unknown', ticket: 'tkt_doesnotexist000' }), tokens.user.token),
        404,
        'TICKET_NOT_FOUND',
      );
    });

    it('stores a self-seeded (cherry-picked) seed set verified but unranked, saying why', async () => {
      const before = await counts();
      // Five seeds of the submitter's choosing, of which the best three are sent.
      const tried = await play([0, 1, 2, 3, 4]);
      const best = [...tried].sort((a, b) => b.totals.score - a.totals.score).slice(0, 3);
      const status = await submit(submission({ id: 'run-cherry-picked', agent: 'picker', ticket: undefined, episodes: best }));
      expect(status.submission.status).toBe('accepted');
      expect(status.result?.run).toMatchObject({ ranked: 0, ticket: null, unrankedReason: expect.stringMatching(/^Self-seeded/) });
      expect(status.result?.episodes.every((e) => e.verification === 'verified' && !e.ranked && /Self-seeded/.test(e.unrankedReason ?? ''))).toBe(true);
      expect(await counts()).toMatchObject({ runs: before.runs + 1, episodes: before.episodes + 3, cells: before.cells });
      expect((await loadLeaderboard(db, { play: 'any', suite: 'all' })).rows.some((r) => r.agent.name === 'picker')).toBe(false);
      const run = await loadRun(db, status.result!.run.id);
      expect(run?.run).toMatchObject({ ticketId: null, unrankedReason: expect.stringMatching(/Self-seeded/) });
    });

    it('leaves a ticketed run unranked when it keeps only some of the ticket seeds', async () => {
      const five = await newTicket('user', { game: 'snake', seedsPerGame: 5 });
      const played = await play(five.games[0].seeds);
      const best = [...played].sort((a, b) => b.totals.score - a.totals.score).slice(0, 3);
      const status = await submit(submission({ id: 'run-unplayed-seeds', agent: 'picker', ticket: five.id, episodes: best }));
      expect(status.result?.run).toMatchObject({ ranked: 0, unrankedReason: expect.stringMatching(/Not every ticket seed was played: 2 of 5 missing/) });
      expect(status.result?.episodes.every((e) => e.ticketed && !e.ranked)).toBe(true);
      // The same seed twice is no better.
      const twice = await newTicket('user');
      const eps = await play(twice.games[0].seeds);
      const again = await submit(submission({ id: 'run-seed-twice', agent: 'picker', ticket: twice.id, episodes: [...eps, eps[0]] }));
      expect(again.result?.run.unrankedReason).toMatch(/played more than once/);
    });

    it('leaves an episode cut before the game ended or the budget ran out unranked, and its ticketed run with it', async () => {
      const t = await newTicket('user');
      const played = await play(t.games[0].seeds, 'scripted');
      const long = played.findIndex((r) => r.totals.length > 10);
      expect(long).toBeGreaterThanOrEqual(0);
      const episodesCut = [...played];
      episodesCut[long] = await cut(played[long], 10);
      expect(episodesCut[long].totals).toMatchObject({ length: 10, terminated: false, truncated: false });
      const status = await submit(submission({ id: 'run-cut-short', agent: 'cutter', ticket: t.id, episodes: episodesCut }));
      expect(status.submission.status).toBe('accepted');
      expect(status.result?.run).toMatchObject({ ranked: 0, unrankedReason: expect.stringMatching(/Not every ticket seed was played completely.*Cut short/) });
      expect(status.result?.episodes[long].unrankedReason).toMatch(/^Cut short: it stops after 10 of 100 steps/);
      expect(
        status.result?.episodes.filter((_, i) => i !== long).every((e) => /Not every ticket seed was played completely/.test(e.unrankedReason ?? '')),
      ).toBe(true);
      expect((await loadLeaderboard(db, { play: 'any', suite: 'all' })).rows.some((r) => r.agent.name === 'cutter')).toBe(false);
    });

    it('rejects a tampered final frame hash or viewport, naming the field, and stores nothing', async () => {
      const t = await newTicket('user');
      const eps = await play(t.games[0].seeds);
      const hash = clone(eps);
      hash[1].finalFrameHash = 'deadbeef';
      const e1 = await expectRejected(submission({ id: 'run-frame-hash', ticket: t.id, episodes: hash }), 'VERIFICATION_FAILED');
      expect(e1.details).toMatchObject({ episode: 1, field: 'finalFrameHash', claimed: 'deadbeef', replayed: eps[1].finalFrameHash });
      expect(e1.message).toMatch(/"finalFrameHash" says "deadbeef"/);
      const viewport = clone(eps);
      viewport[0].viewport = { width: 4000, height: 4000 };
      const e2 = await expectRejected(submission({ id: 'run-viewport', ticket: (await newTicket('user')).id, episodes: viewport }), 'VERIFICATION_FAILED');
      expect(e2.details).toMatchObject({ episode: 0, field: 'viewport.height', claimed: 4000, replayed: 400 });
    });

    it('stores what the replay gives, not what was claimed: a made-up browser is kept as a claim only', async () => {
      const t = await newTicket('user');
      const eps = await play(t.games[0].seeds);
      const claimed = clone(eps);
      claimed.forEach((r) => (r.browser = { name: 'chromium', version: '999.0-made-up' }));
      const status = await submit(submission({ id: 'run-browser-claim', ticket: t.id, episodes: claimed }));
      expect(status.result?.run.ranked).toBe(3);
      const ids = status.result!.episodes.map((e) => e.id);
      const rows = await db
        .select({ id: episodes.id, claimed: episodes.claimed, replay: episodes.replay, record: episodeRecords.record })
        .from(episodes)
        .innerJoin(episodeRecords, eq(episodeRecords.episodeId, episodes.id));
      for (const row of rows.filter((r) => ids.includes(r.id))) {
        expect(row.claimed?.browser.version).toBe('999.0-made-up');
        expect(row.replay?.browser.version).toBe(browser.version());
        expect(row.record.browser.version).toBe(browser.version());
      }
    });

    it('leaves play at another device scale factor unranked (the replay plays it at that factor too)', async () => {
      const t = await newTicket('user', { game: 'snake', seedsPerGame: 1 });
      const eps = await play(t.games[0].seeds);
      const scaled = await Promise.all(eps.map((r) => cut(r, r.actions.length, { deviceScaleFactor: 2 })));
      // Complete as played: a random Snake sometimes lasts the whole budget (truncated, as complete as terminated).
      expect(scaled.map((r) => r.deviceScaleFactor)).toEqual([2]);
      expect(scaled.map((r) => r.totals)).toEqual(eps.map((r) => r.totals));
      expect(scaled.every((r) => r.totals.terminated || r.totals.truncated)).toBe(true);
      const status = await submit(submission({ id: 'run-dsf-2', agent: 'scaler', ticket: t.id, episodes: scaled }));
      expect(status.result?.episodes.map((e) => e.unrankedReason)).toEqual(['Played at device scale factor 2; the official one is 1.']);
      // Claiming another factor than was played: the replay at the claimed factor is what counts.
      const t2 = await newTicket('user', { game: 'snake', seedsPerGame: 1 });
      const eps2 = await play(t2.games[0].seeds);
      const claims = clone(eps2);
      claims.forEach((r) => (r.deviceScaleFactor = 3));
      const s2 = await submit(submission({ id: 'run-dsf-claim', agent: 'scaler', ticket: t2.id, episodes: claims }));
      if (s2.submission.status === 'accepted') expect(s2.result?.run.ranked).toBe(0);
      else expect(s2.error?.code).toBe('VERIFICATION_FAILED');
    });

    it('leaves a run on an expired ticket unranked', async () => {
      const shortLived = testSite(db, { verify: (r, s) => verifyAbortable(r, browser, s), ttlMs: 1 });
      try {
        const res = await shortLived.tickets.issue(apiPost('/api/tickets', { game: 'snake' }, tokens.user.token));
        const t = ((await res.json()) as { ticket: TicketJson }).ticket;
        const eps = await play(t.games[0].seeds);
        const status = await submit(submission({ id: 'run-expired', ticket: t.id, episodes: eps }));
        expect(status.result?.run).toMatchObject({ ranked: 0, unrankedReason: expect.stringMatching(/expired/) });
      } finally {
        await shortLived.close();
      }
    });

    it('rejects a forged score with the first differing step, naming the first bad episode', async () => {
      const t = await newTicket('user');
      const eps = await play(t.games[0].seeds);
      const forged = clone(eps);
      const k = Math.min(5, forged[1].steps.length - 1);
      for (let i = k; i < forged[1].steps.length; i++) forged[1].steps[i].score += 10;
      forged[1].totals.score += 10;
      forged[2].steps[0].score += 20;
      forged[2].totals.score += 20;
      const error = await expectRejected(submission({ id: 'run-forged-score', ticket: t.id, episodes: forged }), 'VERIFICATION_FAILED');
      expect(error.details).toMatchObject({ episode: 1, gameId: 'snake', seed: eps[1].seed, firstMismatchStep: k });
      expect(error.message).toMatch(new RegExp(`step ${k} differs`));
      // The ticket was used by the rejected submission.
      await expectRefused(apiPost('/api/runs', submission({ id: 'run-forged-again', ticket: t.id, episodes: eps }), tokens.user.token), 409, 'TICKET_USED');
    });

    it('refuses episodes from another game version or verifier before queueing them', async () => {
      await site.queue.idle();
      const calls = verifications;
      const oldVersion = clone(genuine[0]);
      oldVersion.gameVersion = '0.9.0';
      const v = await expectRefused(
        apiPost('/api/runs', submission({ id: 'run-old-version', ticket: undefined, episodes: [genuine[1], oldVersion] }), tokens.user.token),
        422,
        'GAME_VERSION_MISMATCH',
      );
      expect(v.body.error.details).toMatchObject({ episode: 1, expected: getGame('snake').manifest.version });
      const otherVerifier = clone(genuine[0]);
      otherVerifier.verifierChecksum = 'f'.repeat(64);
      await expectRefused(
        apiPost('/api/runs', submission({ id: 'run-other-verifier', ticket: undefined, episodes: [otherVerifier] }), tokens.user.token),
        422,
        'VERIFIER_CHECKSUM_MISMATCH',
      );
      expect(verifications).toBe(calls);
    });

    it('refuses malformed bodies, missing tokens, names of others and oversized bodies', async () => {
      const bad = { ...clone(genuine[0]), seed: 'x' };
      const m = await expectRefused(
        apiPost('/api/runs', { ...submission({ id: 'run-malformed' }), episodes: [bad] }, tokens.user.token),
        400,
        'INVALID_SUBMISSION',
      );
      expect(m.body.error.details).toEqual({ path: ['episodes', '0', 'seed'] });
      await expectRefused(
        apiPost('/api/runs', { ...submission({ id: 'run-bad-ticket' }), ticket: 'not-a-ticket' }, tokens.user.token),
        400,
        'INVALID_SUBMISSION',
      );
      await expectRefused(apiPost('/api/runs', '{"id": "run-broken", ', tokens.user.token), 400, 'INVALID_JSON');
      await expectRefused(
        apiPost('/api/runs', submission({ id: 'run-form' }), tokens.user.token, { 'content-type': 'text/plain' }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      const a = await expectRefused(apiPost('/api/runs', submission({ id: 'run-no-token' }), null), 401, 'UNAUTHORIZED');
      expect(a.res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await expectRefused(apiPost('/api/runs', submission({ id: 'run-bad-token' }), 'agt_not-a-real-token'), 401, 'INVALID_TOKEN');
      await expectRefused(apiPost('/api/runs', submission({ id: 'run-name-theft', ticket: undefined }), tokens.other.token), 403, 'AGENT_NAME_TAKEN');
      await expectRefused(
        apiPost('/api/runs', submission({ id: 'run-baseline-name', agent: 'random', ticket: undefined }), tokens.other.token),
        403,
        'AGENT_NAME_TAKEN',
      );
      await expectRefused(
        apiPost('/api/runs', submission({ id: 'run-human', kind: 'human', agent: 'pat', ticket: undefined }), tokens.user.token),
        403,
        'FORBIDDEN',
      );
      const copies = Math.ceil((1.2 * MAX_BYTES) / JSON.stringify(genuine[1]).length);
      const big = submission({ id: 'run-too-big', ticket: undefined, episodes: Array.from({ length: copies }, () => genuine[1]) });
      expect(JSON.stringify(big).length).toBeGreaterThan(MAX_BYTES);
      const { body } = await expectRefused(apiPost('/api/runs', big, tokens.user.token), 413, 'PAYLOAD_TOO_LARGE');
      expect(body.error.details).toEqual({ maxBytes: MAX_BYTES });
    });

    it('refuses a name that reads as a taken or reserved one (case, look-alikes, punctuation), naming the clash', async () => {
      const refused = async (agent: string, who: keyof typeof tokens, clashesWith: string, message: RegExp) => {
        const { body } = await expectRefused(
          apiPost('/api/runs', submission({ id: `run-name-${agent}-${who}`, agent, ticket: undefined }), tokens[who].token),
          403,
          'AGENT_NAME_TAKEN',
        );
        expect(body.error.details).toEqual({ agent, clashesWith });
        expect(body.error.message).toMatch(message);
      };
      // The baselines' names, in any spelling, whoever asks.
      await refused('SCRIPTED', 'other', 'scripted', /"SCRIPTED" is reserved for the built-in baseline "scripted".*reads as "scripted"/);
      await refused('Random', 'admin', 'random', /reserved for the built-in baseline "random"/);
      await refused('rand0m.', 'user', 'random', /reserved for the built-in baseline "random"/);
      // "name-sake" is the user's: another token gets none of its spellings...
      const held = await submit(submission({ id: 'run-namesake', agent: 'name-sake', ticket: undefined, episodes: [genuine[0]] }));
      expect(held.submission.status).toBe('accepted');
      await refused('Name-Sake', 'other', 'name-sake', /"Name-Sake" belongs to another token \(it reads as "name-sake"/);
      await refused('name-sake.', 'other', 'name-sake', /belongs to another token/);
      await refused('NAME_SAKE', 'other', 'name-sake', /belongs to another token/);
      await refused('name.sake', 'other', 'name-sake', /belongs to another token/);
      // ...and its owner submits under the one spelling, so the agent stays one row and one page.
      await refused('NAME-SAKE', 'user', 'name-sake', /reads as this token's agent "name-sake".*submit as "name-sake"/);
    });

    it('refuses a run with more steps than one submission may replay, before queueing it', async () => {
      const small = testSite(db, { verify: (r, s) => verifyAbortable(r, browser, s), budget: { maxSteps: 5, baseMs: 1000, perStepMs: 1 } });
      try {
        const res = await small.handle(apiPost('/api/runs', submission({ id: 'run-over-budget', ticket: undefined }), tokens.user.token));
        expect(res.status).toBe(422);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('BUDGET_EXCEEDED');
      } finally {
        await small.close();
      }
    });

    it('takes ticketed human play from an admin token as the game reference, and self-seeded play as unranked', async () => {
      const before = await counts();
      const t = await newTicket('admin', { game: 'snake', purpose: 'human' });
      expect(t.games[0].seeds).toHaveLength(1);
      const [episode] = await play(t.games[0].seeds, 'scripted');
      const status = await submit(submission({ id: 'run-human-ticketed', kind: 'human', agent: 'pat', ticket: t.id, episodes: [episode] }), 'admin');
      expect(status.result?.run).toMatchObject({ ranked: 1, ticket: t.id });
      const [ref] = await db.select().from(gameReferences).where(eq(gameReferences.gameId, 'snake'));
      expect(ref).toMatchObject({ kind: 'human', status: 'provisional', score: episode.totals.score, episodes: 1 });
      const [other] = await play([7], 'scripted');
      const selfSeeded = await submit(submission({ id: 'run-human-self-seeded', kind: 'human', agent: 'pat', ticket: undefined, episodes: [other] }), 'admin');
      expect(selfSeeded.result?.run.ranked).toBe(0);
      const [after] = await db.select().from(gameReferences).where(eq(gameReferences.gameId, 'snake'));
      expect(after).toMatchObject({ score: episode.totals.score, episodes: 1 });
      expect(await counts()).toMatchObject({ human: before.human + 2 });
    });

    it('stores concurrent submissions of one new run once', async () => {
      const before = await counts();
      const sub = submission({ id: 'run-concurrent', ticket: undefined, episodes: [genuine[2]] });
      const [a, b] = await Promise.all([site.handle(apiPost('/api/runs', sub, tokens.user.token)), site.handle(apiPost('/api/runs', sub, tokens.user.token))]);
      expect([a.status, b.status]).toEqual([202, 202]);
      const [ja, jb] = (await Promise.all([a.json(), b.json()])) as SubmissionStatus[];
      expect(ja.submission.id).toBe(jb.submission.id);
      await site.queue.idle();
      expect(await counts()).toMatchObject({ runs: before.runs + 1, episodes: before.episodes + 1 });
      expect((await db.select({ n: count() }).from(submissions).where(eq(submissions.clientId, 'run-concurrent')))[0].n).toBe(1);
    });
  });
}
