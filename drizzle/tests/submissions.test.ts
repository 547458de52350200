/**
 * POST /api/runs end to end (minus the HTTP server): genuine episodes of the real Snake build are
 * accepted after re-simulation in Chromium; every kind of bad submission is refused with its
 * reason, and leaves the database exactly as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { agentGameStats, agents, episodeRecords, episodes, humanEpisodes, runs } from '../schema';
import { openDatabase, type Database, type Db } from '../../leaderboard/db';
import { syncGames } from '../../leaderboard/games';
import { loadLeaderboard } from '../../leaderboard/queries';
import { RateLimiter } from '../../leaderboard/rate-limit';
import { createSubmissionHandler } from '../../leaderboard/submissions';
import type { RunSubmissionInput } from '../../leaderboard/submission-schema';
import { createToken } from '../../leaderboard/tokens';
import { getGame, loadCatalog } from '../../gym/catalog';
import { evaluateGame } from '../../gym/eval/evaluate';
import { canonicalJson, type EpisodeRecord } from '../../gym/schema/records';
import { verifyEpisode } from '../../gym/verify/resimulate';
import { useBrowser } from '../../gym/testing/harness';

const gym = useBrowser();
let database: Database;
let db: Db;
let browser: Browser;
let genuine: EpisodeRecord[];
let tokens: Record<'user' | 'other' | 'admin', string>;
let handle: (r: Request) => Promise<Response>;
let verifications = 0;
/** Extra milliseconds before re-simulating a record: to fix the order verifications finish in. */
let delayFor: (record: EpisodeRecord) => number = () => 0;

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));
const MAX_BYTES = 2 * 1024 * 1024;

function request(body: unknown, token: string | null, headers: Record<string, string> = {}): Request {
  return new Request('http://arcade.test/api/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function submission(over: Partial<RunSubmissionInput> = {}): RunSubmissionInput {
  return { id: 'run-genuine-0001', agent: 'tester', settings: { observation: ['state', 'vector'], harness: 'random', codeVersion: 'test' }, episodes: genuine, ...over };
}

async function counts() {
  const n = async (t: typeof runs | typeof episodes | typeof episodeRecords | typeof agents | typeof agentGameStats | typeof humanEpisodes) => (await db.select({ n: count() }).from(t))[0].n;
  return { runs: await n(runs), episodes: await n(episodes), records: await n(episodeRecords), agents: await n(agents), cells: await n(agentGameStats), human: await n(humanEpisodes) };
}

/** Posts and checks the answer is a refusal with this code that stored nothing. */
async function expectRefused(req: Request, status: number, code: string) {
  const before = await counts();
  const res = await handle(req);
  const body = (await res.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } };
  expect({ status: res.status, code: body.error?.code }).toEqual({ status, code });
  expect(typeof body.error.message).toBe('string');
  expect(await counts()).toEqual(before);
  return { res, body };
}

beforeAll(async () => {
  browser = await gym.browser();
  database = await openDatabase({ dataDir: 'memory' });
  db = database.db;
  await syncGames(db, loadCatalog());
  tokens = {
    user: (await createToken(db, { name: 'user' })).token,
    other: (await createToken(db, { name: 'other' })).token,
    admin: (await createToken(db, { name: 'admin', admin: true })).token,
  };
  genuine = (await evaluateGame({ game: getGame('snake'), agent: 'random', seeds: [0, 1, 2], browser })).episodes;
  handle = createSubmissionHandler({
    db,
    catalog: loadCatalog,
    verify: async (r) => {
      verifications++;
      const delay = delayFor(r);
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      return verifyEpisode(r, browser);
    },
    limiter: new RateLimiter({ burst: 1000, perMinute: 1000 }),
    maxBytes: MAX_BYTES,
  });
});

afterAll(async () => {
  await database?.close();
});

describe('POST /api/runs', () => {
  it('accepts a genuine run after replaying every episode, and stores it whole', async () => {
    const res = await handle(request(submission(), tokens.user));
    const body = await res.json();
    expect(res.status).toBe(201);
    expect(body.run).toMatchObject({ clientId: 'run-genuine-0001', agent: 'tester', episodes: 3, ranked: 3, games: ['snake'] });
    expect(body.episodes.map((e: { verification: string; seed: number }) => [e.seed, e.verification])).toEqual([
      [0, 'verified'],
      [1, 'verified'],
      [2, 'verified'],
    ]);
    expect(verifications).toBe(3);
    expect(await counts()).toMatchObject({ runs: 1, episodes: 3, records: 3, agents: 1, cells: 1 });
    const stored = await db.select({ record: episodeRecords.record }).from(episodeRecords).orderBy(episodeRecords.episodeId);
    expect(stored.map((s) => canonicalJson(s.record))).toEqual(genuine.map(canonicalJson));
    const lb = await loadLeaderboard(db, { suite: 'all' });
    const row = lb.rows.find((r) => r.agent.name === 'tester')!;
    const mean = genuine.reduce((a, e) => a + e.totals.score, 0) / 3;
    expect(row.cells.snake).toMatchObject({ seeds: 3, meanScore: mean, replayVerified: true });
    expect(row.agent.settings).toMatchObject({ observation: ['state', 'vector'], actionSpace: 'discrete', harness: 'random', official: true });
  });

  it('answers a retry with the same id with the same answer, storing nothing new', async () => {
    const first = await (await handle(request(submission(), tokens.user))).json();
    const before = await counts();
    const res = await handle(request(submission(), tokens.user));
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(await res.json()).toEqual(first);
    expect(await counts()).toEqual(before);
    expect(verifications).toBe(3);
  });

  it('refuses a different run under an id already used', async () => {
    await expectRefused(request(submission({ agent: 'someone-else' }), tokens.user), 409, 'IDEMPOTENCY_CONFLICT');
  });

  it('refuses a forged score with the first differing step', async () => {
    const forged = clone(genuine[1]);
    const k = Math.min(5, forged.steps.length - 1);
    for (let i = k; i < forged.steps.length; i++) forged.steps[i].score += 10;
    forged.totals.score += 10;
    const { body } = await expectRefused(request(submission({ id: 'run-forged-score', episodes: [forged, genuine[0]] }), tokens.user), 422, 'VERIFICATION_FAILED');
    expect(body.error.details).toMatchObject({ episode: 0, gameId: 'snake', seed: 1, firstMismatchStep: k });
    expect(body.error.message).toMatch(new RegExp(`step ${k} differs`));
  });

  it('names the first bad episode when several are bad (episodes are checked a few at a time)', async () => {
    const forge = (r: (typeof genuine)[number], by: number) => {
      const f = clone(r);
      f.steps[0].score += by;
      f.totals.score += by;
      return f;
    };
    // The earlier forgery is held back, so the later one fails first; the answer must still name the earlier.
    const episodes = [genuine[0], forge(genuine[1], 10), genuine[0], forge(genuine[0], 20)];
    delayFor = (r) => (r.seed === genuine[1].seed ? 1_000 : 0);
    try {
      const { body } = await expectRefused(request(submission({ id: 'run-two-forgeries', episodes }), tokens.user), 422, 'VERIFICATION_FAILED');
      expect(body.error.details).toMatchObject({ episode: 1, seed: genuine[1].seed, firstMismatchStep: 0 });
    } finally {
      delayFor = () => 0;
    }
  });

  it('refuses a tampered action list', async () => {
    const swapped = clone(genuine[1]);
    swapped.actions[2] = ((swapped.actions[2] as number) + 1) % 5;
    const r1 = await expectRefused(request(submission({ id: 'run-tampered-1', episodes: [swapped] }), tokens.user), 422, 'VERIFICATION_FAILED');
    expect(r1.body.error.details).toMatchObject({ firstMismatchStep: 2 });
    // Consistently rewritten (actions and steps agree) but not what the game does with them.
    const rewritten = clone(genuine[1]);
    rewritten.actions = rewritten.actions.map(() => 0);
    rewritten.steps.forEach((s) => (s.action = 0));
    const r2 = await expectRefused(request(submission({ id: 'run-tampered-2', episodes: [rewritten] }), tokens.user), 422, 'VERIFICATION_FAILED');
    expect(r2.body.error.details?.firstMismatchStep).toEqual(expect.any(Number));
  });

  it('refuses episodes from another game version or verifier before replaying them', async () => {
    const calls = verifications;
    const oldVersion = clone(genuine[0]);
    oldVersion.gameVersion = '0.9.0';
    const v = await expectRefused(request(submission({ id: 'run-old-version', episodes: [genuine[1], oldVersion] }), tokens.user), 422, 'GAME_VERSION_MISMATCH');
    expect(v.body.error.details).toMatchObject({ episode: 1, expected: getGame('snake').manifest.version });
    const otherVerifier = clone(genuine[0]);
    otherVerifier.verifierChecksum = 'f'.repeat(64);
    await expectRefused(request(submission({ id: 'run-other-verifier', episodes: [otherVerifier] }), tokens.user), 422, 'VERIFIER_CHECKSUM_MISMATCH');
    const unknown = clone(genuine[0]);
    unknown.gameId = 'no-such-game';
    await expectRefused(request(submission({ id: 'run-unknown-game', episodes: [unknown] }), tokens.user), 422, 'UNKNOWN_GAME');
    expect(verifications).toBe(calls);
  });

  it('refuses malformed records and bodies', async () => {
    const bad = { ...clone(genuine[0]), seed: 'x' };
    const m = await expectRefused(request({ ...submission({ id: 'run-malformed' }), episodes: [bad] }, tokens.user), 400, 'INVALID_SUBMISSION');
    expect(m.body.error.details).toEqual({ path: ['episodes', '0', 'seed'] });
    await expectRefused(request({ ...submission({ id: 'run-no-settings' }), settings: undefined }, tokens.user), 400, 'INVALID_SUBMISSION');
    await expectRefused(request({ ...submission({ id: 'run-no-episodes', episodes: [] }) }, tokens.user), 400, 'INVALID_SUBMISSION');
    await expectRefused(request('{"id": "run-broken", ', tokens.user), 400, 'INVALID_JSON');
    await expectRefused(request(submission({ id: 'run-form' }), tokens.user, { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a missing or wrong token', async () => {
    const a = await expectRefused(request(submission({ id: 'run-no-token' }), null), 401, 'UNAUTHORIZED');
    expect(a.res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await expectRefused(request(submission({ id: 'run-bad-token' }), 'agt_not-a-real-token'), 401, 'INVALID_TOKEN');
    await expectRefused(request(submission({ id: 'run-basic-auth' }), null, { authorization: 'Basic dXNlcjpwYXNz' }), 401, 'UNAUTHORIZED');
  });

  it('refuses an agent name owned by another token, and human play from a non-admin token', async () => {
    await expectRefused(request(submission({ id: 'run-name-theft' }), tokens.other), 403, 'AGENT_NAME_TAKEN');
    // The baselines' names are reserved even before the seed script has run them.
    await expectRefused(request(submission({ id: 'run-baseline-name', agent: 'random' }), tokens.other), 403, 'AGENT_NAME_TAKEN');
    await expectRefused(request(submission({ id: 'run-human', kind: 'human', agent: 'pat' }), tokens.user), 403, 'FORBIDDEN');
  });

  it('accepts verified human play from an admin token as the game reference', async () => {
    const res = await handle(request(submission({ id: 'run-human-admin', kind: 'human', agent: 'pat', episodes: [genuine[0]] }), tokens.admin));
    expect(res.status).toBe(201);
    expect(await counts()).toMatchObject({ human: 1, runs: 2, episodes: 3 });
  });

  it('refuses an oversized body with 413', async () => {
    const big = submission({ id: 'run-too-big', episodes: Array.from({ length: 60 }, () => genuine[1]) });
    expect(JSON.stringify(big).length).toBeGreaterThan(MAX_BYTES);
    const { body } = await expectRefused(request(big, tokens.user), 413, 'PAYLOAD_TOO_LARGE');
    expect(body.error.details).toEqual({ maxBytes: MAX_BYTES });
    // Without a Content-Length (a stream), the limit holds too.
    const text = JSON.stringify(big);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < text.length; i += 65536) c.enqueue(new TextEncoder().encode(text.slice(i, i + 65536)));
        c.close();
      },
    });
    const req = new Request('http://arcade.test/api/runs', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.user}` }, body: stream, duplex: 'half' } as RequestInit);
    await expectRefused(req, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('limits submissions per token with 429 and Retry-After', async () => {
    let now = 0;
    const limited = createSubmissionHandler({ db, catalog: loadCatalog, verify: (r) => verifyEpisode(r, browser), limiter: new RateLimiter({ burst: 2, perMinute: 2 }, () => now) });
    const retry = () => limited(request(submission(), tokens.user));
    expect((await retry()).status).toBe(201);
    expect((await retry()).status).toBe(201);
    const before = await counts();
    const res = await retry();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect((await res.json()).error.code).toBe('RATE_LIMITED');
    // Another token has its own bucket; time refills this one.
    expect((await limited(request(submission({ id: 'run-x' }), null))).status).toBe(401);
    now += 30_000;
    expect((await retry()).status).toBe(201);
    expect(await counts()).toEqual(before);
  });

  it('stores concurrent submissions of one new run once', async () => {
    const before = await counts();
    const sub = submission({ id: 'run-concurrent', agent: 'tester', episodes: [genuine[2]] });
    const [a, b] = await Promise.all([handle(request(sub, tokens.user)), handle(request(sub, tokens.user))]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(await a.json()).toEqual(await b.json());
    expect(await counts()).toMatchObject({ runs: before.runs + 1, episodes: before.episodes + 1 });
  });
});
