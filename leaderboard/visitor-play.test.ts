/**
 * Human references from people, on PGlite and PostgreSQL: visitors of /play draw tickets under
 * a name of their own, their episodes are replayed in Chromium and stored as a candidate's, and
 * only once an admin accepts them do they move a game's reference, which is the median of the
 * accepted players' episodes from five players on and provisional before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { gameReferences, humanEpisodes, humanPlayers } from '../drizzle/schema';
import { getGame } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import type { EpisodeRecord } from '../gym/schema';
import { useBrowser } from '../gym/testing';
import type { Database, Db } from './db';
import { syncGames } from './games';
import type { PlayerSummary } from './human-players';
import { RateLimiter } from './rate-limit';
import type { SubmissionStatus } from './submission-schema';
import { apiGet, apiPost, serveTestSite, testDrivers, testSite } from './test-support';
import type { TicketJson } from './tickets';
import { createToken } from './tokens';
import { verifyAbortable } from './verifier-browser';
import { cliRunner } from '../cli/testing';

const cli = cliRunner({ timeoutMs: 120_000, isolated: true });

const gym = useBrowser();
let browser: Browser;
const GAME = 'snake';

async function play(seed: number, agent: string): Promise<EpisodeRecord> {
  return (await evaluateGame({ game: getGame(GAME), agent, seeds: [seed], observation: ['state'], browser })).episodes[0];
}

beforeAll(async () => {
  browser = await gym.browser();
});

for (const driver of testDrivers()) {
  describe(`${driver.driver}: visitors' human reference play`, () => {
    let database: Database;
    let db: Db;
    let site: ReturnType<typeof testSite>;
    let admin: string;
    let user: string;
    const keys = new Map<string, string>();

    /** A visitor's ticket: 201, the name's key on first use. */
    async function ticketFor(player: string): Promise<TicketJson> {
      const key = keys.get(player);
      const res = await site.visitorPlay.ticket(apiPost('/api/play/tickets', { game: GAME, player, ...(key ? { playerKey: key } : {}) }));
      const body = (await res.json()) as { ticket: TicketJson; player: { name: string; status: string }; playerKey?: string };
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(body.player).toEqual({ name: expect.any(String), status: expect.any(String) });
      expect(body.playerKey !== undefined).toBe(!key);
      if (body.playerKey) keys.set(player, body.playerKey);
      return body.ticket;
    }

    /** Plays the ticket's seed with this agent as the "person" and hands the episode in: its settled status. */
    async function playAndHandIn(player: string, agent = 'scripted'): Promise<{ status: SubmissionStatus; record: EpisodeRecord; ticket: TicketJson }> {
      const ticket = await ticketFor(player);
      const record = await play(ticket.games[0].seeds[0], agent);
      const res = await site.visitorPlay.run(apiPost('/api/play/runs', { ticket: ticket.id, player, playerKey: keys.get(player), episode: record }));
      const queued = (await res.json()) as SubmissionStatus;
      expect(res.status, JSON.stringify(queued)).toBe(202);
      return { status: await site.settled(queued.submission.id), record, ticket };
    }

    const reference = async () => (await db.select().from(gameReferences).where(eq(gameReferences.gameId, GAME))).find((r) => r.kind === 'human')!;
    const decide = (name: string, status: string, token = admin) => site.humanPlayers.decide(apiPost('/api/admin/human-players', { name, status }, token));
    async function players(): Promise<PlayerSummary[]> {
      const res = await site.humanPlayers.list(apiGet('/api/admin/human-players', admin));
      expect(res.status).toBe(200);
      return ((await res.json()) as { players: PlayerSummary[] }).players;
    }
    const errorOf = async (res: Response) => ({ status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code });

    beforeAll(async () => {
      database = await driver.open();
      db = database.db;
      await syncGames(db, (await import('../gym/catalog')).loadCatalog());
      admin = (await createToken(db, { name: 'admin', admin: true })).token;
      user = (await createToken(db, { name: 'user' })).token;
      site = testSite(db, { verify: (r, signal) => verifyAbortable(r, browser, signal) });
    }, 120_000);

    afterAll(async () => {
      await site?.close();
      await database?.close();
      await driver.cleanup();
    });

    it("stores a visitor's replayed episode as a candidate's, which moves no reference until an admin accepts the player", async () => {
      const manifestRef = await reference();
      expect(manifestRef.status).toBe('provisional');
      const { status, record } = await playAndHandIn('ada');
      expect(status.submission.status).toBe('accepted');
      expect(status.result?.run).toMatchObject({ ranked: 1 });
      const [stored] = await db.select().from(humanEpisodes).innerJoin(humanPlayers, eq(humanPlayers.id, humanEpisodes.playerId));
      expect(stored.human_episodes).toMatchObject({ player: 'ada', score: record.totals.score, ranked: true });
      expect(stored.human_players).toMatchObject({ name: 'ada', status: 'candidate' });
      expect(await reference()).toMatchObject({ score: manifestRef.score, episodes: 0, status: 'provisional' });
      expect((await players()).map((p) => [p.name, p.status, p.visitor, p.games])).toEqual([
        ['ada', 'candidate', true, [{ gameId: GAME, episodes: 1, meanScore: record.totals.score }]],
      ]);

      // Only an admin decides; then the reference is the accepted play's, provisional with one player.
      expect(await errorOf(await decide('ada', 'accepted', user))).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect(await errorOf(await decide('nobody', 'accepted'))).toEqual({ status: 404, code: 'PLAYER_NOT_FOUND' });
      expect(await errorOf(await decide('ada', 'maybe'))).toEqual({ status: 400, code: 'INVALID_SUBMISSION' });
      const accepted = await decide('ada', 'accepted');
      expect(accepted.status).toBe(200);
      expect(((await accepted.json()) as { player: PlayerSummary }).player).toMatchObject({ name: 'ada', status: 'accepted' });
      const ref = await reference();
      expect(ref).toMatchObject({ score: record.totals.score, episodes: 1, status: 'provisional' });
      expect(ref.provenance).toMatch(/player: ada\. Provisional until 5 accepted players have played \(1 so far\)/);
    }, 300_000);

    it('keeps a name to the browser that registered it, a ticket to one episode, and visitors to visitor tickets', async () => {
      // Look-alike spellings are one name; without its key it is taken.
      const taken = await site.visitorPlay.ticket(apiPost('/api/play/tickets', { game: GAME, player: 'Ada' }));
      expect(await errorOf(taken)).toEqual({ status: 403, code: 'PLAYER_NAME_TAKEN' });
      const wrongKey = await site.visitorPlay.ticket(apiPost('/api/play/tickets', { game: GAME, player: 'ada', playerKey: `hpk_${'x'.repeat(32)}` }));
      expect(await errorOf(wrongKey)).toEqual({ status: 403, code: 'PLAYER_NAME_TAKEN' });
      expect(await errorOf(await site.visitorPlay.ticket(apiPost('/api/play/tickets', { game: GAME, player: '-bad name' })))).toEqual({
        status: 400,
        code: 'INVALID_SUBMISSION',
      });
      expect(await errorOf(await site.visitorPlay.ticket(apiPost('/api/play/tickets', { game: 'no-such-game', player: 'bea' })))).toEqual({
        status: 422,
        code: 'UNKNOWN_GAME',
      });

      const { ticket, record } = await playAndHandIn('bea');
      const handIn = (body: Record<string, unknown>) =>
        site.visitorPlay.run(apiPost('/api/play/runs', { ticket: ticket.id, player: 'bea', playerKey: keys.get('bea'), episode: record, ...body }));
      // The same episode again is answered from what is stored; another one on the ticket is refused.
      const again = await handIn({});
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const other = await play(12345, 'random');
      expect(await errorOf(await handIn({ episode: other }))).toEqual({ status: 409, code: 'TICKET_USED' });
      expect(await errorOf(await handIn({ player: 'ada', playerKey: keys.get('bea') }))).toEqual({ status: 403, code: 'PLAYER_NAME_TAKEN' });
      expect(await errorOf(await handIn({ player: 'cy', playerKey: keys.get('bea') }))).toEqual({ status: 404, code: 'PLAYER_NOT_FOUND' });
      // A token's ticket (here an admin's human-play ticket) is not a visitor's.
      const adminTicket = await site.tickets.issue(apiPost('/api/tickets', { game: GAME, purpose: 'human' }, admin));
      const { ticket: t } = (await adminTicket.json()) as { ticket: TicketJson };
      expect(await errorOf(await handIn({ ticket: t.id }))).toEqual({ status: 404, code: 'TICKET_NOT_FOUND' });
      // A rejected player's play never counts.
      expect((await decide('bea', 'rejected')).status).toBe(200);
      expect(await reference()).toMatchObject({ episodes: 1, status: 'provisional' });
      expect((await players()).map((p) => [p.name, p.status])).toEqual([
        ['ada', 'accepted'],
        ['bea', 'rejected'],
      ]);
    }, 300_000);

    it("becomes the median of the accepted players' episodes, verified, from five players on", async () => {
      const scores = [(await db.select({ score: humanEpisodes.score }).from(humanEpisodes).where(eq(humanEpisodes.player, 'ada')))[0].score];
      for (const player of ['cy', 'dee', 'eve', 'fay']) {
        const { record } = await playAndHandIn(player, player === 'fay' ? 'random' : 'scripted');
        scores.push(record.totals.score);
        expect((await decide(player, 'accepted')).status).toBe(200);
        const ref = await reference();
        expect(ref.status).toBe(player === 'fay' ? 'verified' : 'provisional');
      }
      const sorted = [...scores].sort((a, b) => a - b);
      const ref = await reference();
      expect(ref).toMatchObject({ score: sorted[2], episodes: 5, status: 'verified' });
      expect(ref.provenance).toMatch(/^Median of 5 verified human episodes by 5 accepted players at 100 steps/);
      // Play an admin token submits makes its player accepted, with no key: no visitor can take the name.
      const issued = await site.tickets.issue(apiPost('/api/tickets', { game: GAME, purpose: 'human' }, admin));
      const { ticket } = (await issued.json()) as { ticket: TicketJson };
      const episode = await play(ticket.games[0].seeds[0], 'scripted');
      const sent = await site.handle(
        apiPost(
          '/api/runs',
          { id: 'hal-run-0001', agent: 'hal', kind: 'human', settings: { observation: ['state'] }, ticket: ticket.id, episodes: [episode] },
          admin,
        ),
      );
      const queued = (await sent.json()) as SubmissionStatus;
      expect(sent.status, JSON.stringify(queued)).toBe(202);
      expect((await site.settled(queued.submission.id)).submission.status).toBe('accepted');
      expect((await players()).find((p) => p.name === 'hal')).toMatchObject({ status: 'accepted', visitor: false });
      expect((await reference()).episodes).toBe(6);
      const res = await site.visitorPlay.ticket(apiPost('/api/play/tickets', { game: GAME, player: 'hal' }));
      expect(await errorOf(res)).toEqual({ status: 403, code: 'PLAYER_NAME_TAKEN' });
      expect((await db.select({ n: count() }).from(humanPlayers))[0].n).toBe(7);
    }, 600_000);

    it('lists and decides on players from the CLI, with an admin token', async () => {
      const http = await serveTestSite(site);
      try {
        const listed = await cli(['players', '--server', http.url], { ARCADE_TOKEN: admin });
        const lines = listed.stdout.trim().split('\n');
        expect(lines.map((l) => l.split(/\s+/).slice(0, 3))).toEqual(
          [
            ['bea', 'rejected', 'visitor'],
            ['ada', 'accepted', 'visitor'],
            ['cy', 'accepted', 'visitor'],
            ['dee', 'accepted', 'visitor'],
            ['eve', 'accepted', 'visitor'],
            ['fay', 'accepted', 'visitor'],
            ['hal', 'accepted', 'admin'],
          ].sort((a, b) => (a[1] === 'rejected' ? 1 : 0) - (b[1] === 'rejected' ? 1 : 0) || a[0].localeCompare(b[0])),
        );
        expect(listed.stdout).toMatch(/^ada\s+accepted\s+visitor\s+snake 1× mean /m);
        const accepted = await cli(['players', 'accept', 'bea', '--server', http.url], { ARCADE_TOKEN: admin });
        expect(accepted.stderr).toMatch(/bea is accepted; the references of the games they played were recomputed/);
        expect((await reference()).episodes).toBe(7);
        // Only an admin decides, and an unknown name is named.
        await expect(cli(['players', 'reject', 'bea', '--server', http.url], { ARCADE_TOKEN: user })).rejects.toMatchObject({
          stderr: expect.stringMatching(/admin token.*FORBIDDEN/),
        });
        await expect(cli(['players', 'accept', 'nobody', '--server', http.url], { ARCADE_TOKEN: admin })).rejects.toMatchObject({
          stderr: expect.stringMatching(/No player "nobody".*PLAYER_NOT_FOUND/),
        });
      } finally {
        await http.close();
      }
    }, 120_000);

    it('limits visitor tickets per address', async () => {
      const limited = testSite(db, { verify: (r, signal) => verifyAbortable(r, browser, signal), visitorLimiter: new RateLimiter({ burst: 1, perMinute: 1 }) });
      try {
        const ask = (ip: string) =>
          limited.visitorPlay.ticket(
            apiPost('/api/play/tickets', { game: GAME, player: 'gus', playerKey: keys.get('gus') }, undefined, { 'x-forwarded-for': ip }),
          );
        const first = await ask('10.0.0.1');
        expect(first.status).toBe(201);
        keys.set('gus', ((await first.json()) as { playerKey: string }).playerKey);
        const second = await ask('10.0.0.1');
        expect(await errorOf(second)).toEqual({ status: 429, code: 'RATE_LIMITED' });
        expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
        expect((await ask('10.0.0.2')).status).toBe(201);
      } finally {
        await limited.close();
      }
    });
  });
}
