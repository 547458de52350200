/**
 * The hole live tickets close, on real Snake pages, PGlite and PostgreSQL. With a known-seed
 * ticket, an agent that reads the seeds and searches in its own gym (best of several runs of the
 * scripted agent, each with other tie-breaks and a little noise) beats the scripted agent on those
 * seeds and ranks with it. With a live ticket the same player sees no seed in any answer, has a
 * reset with a seed and any second reset refused, cannot touch another token's ticket, and ranks
 * with what it played in the server's sessions, which the server stored and replayed itself. A
 * player that goes away mid-episode loses nothing it played: the episode is stored truncated at
 * its deadline, with the cause.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveEpisodes, runs, tickets } from '../drizzle/schema';
import { loadLeaderboard } from './queries';
import { type Agent, createAgent } from '../gym/agents';
import { getGame } from '../gym/catalog';
import { ArcadeEnv } from '../gym';
import { evaluateGame, runEpisode } from '../gym/eval';
import { SeededRandom } from '../gym/random';
import type { EpisodeRecord, VerifierState } from '../gym/schema';
import { mean } from '../gym/stats';
import { useBrowser } from '../gym/testing';
import type { JobQueue } from '../jobs/queue';
import type { Db } from './db';
import type { LiveCallName } from './live-call';
import { LiveRoutes } from './live-routes';
import type { SubmissionStatus } from './submission-schema';
import { apiGet, apiPost, testDrivers, useServedSite } from './test-support';
import type { TicketJson } from './tickets';
import { createToken } from './tokens';

const gym = useBrowser();
let browser: Browser;
// A reflex game whose scripted agent is beatable (PPO beats it), so that searching its runs on a known seed pays.
const GAME = 'mole-bop';
const SEEDS = 2;

beforeAll(async () => {
  browser = await gym.browser();
});

/** The scripted agent with its tie-breaks drawn from `variant` and a random move with probability `noise`. */
async function variedScripted(variant: number, noise: number): Promise<Agent> {
  const inner = await createAgent('scripted', GAME);
  const rng = new SeededRandom(variant * 7919 + 1);
  const random = () => rng.next();
  const presets = getGame(GAME).manifest.preset.length;
  return {
    name: 'searcher',
    reset: (ctx) => inner.reset({ ...ctx, seed: (ctx.seed + variant) >>> 0 }),
    act: async (turn) => (variant > 0 && random() < noise ? Math.floor(random() * presets) : inner.act(turn)),
  };
}

/** What a seed-reading player does: many runs on each seed in its own gym, the best one kept. */
async function searchSeeds(seeds: readonly number[], tries: number): Promise<EpisodeRecord[]> {
  const env = new ArcadeEnv({ game: GAME, observation: ['state'] }, browser);
  try {
    const best: EpisodeRecord[] = [];
    for (const seed of seeds) {
      let top: EpisodeRecord | null = null;
      for (let k = 0; k < tries; k++) {
        const record = await runEpisode(env, await variedScripted(k, 0.05), seed);
        if (!top || record.totals.score > top.totals.score) top = record;
      }
      best.push(top!);
    }
    return best;
  } finally {
    await env.close();
  }
}

for (const driver of testDrivers()) {
  describe(`${driver.driver}: live tickets`, () => {
    const served = useServedSite(driver, gym.browser, { live: { pool: { maxBrowsers: 1 } } });
    /** Every answer a live player got, as text: no seed may appear in any before the ticket closes. */
    const seen: string[] = [];

    /** A live call through the site's route (forwarded to the worker hosting the ticket), or with `endpoint` straight to that worker. */
    const call = async (what: LiveCallName, ticket: string, body: unknown, token: string, endpoint?: string) => {
      const res = endpoint
        ? await fetch(`${endpoint}/${what}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(body) })
        : await served.site.live!.call(what, ticket, apiPost(`/api/live/${ticket}/${what}`, body, token));
      const text = await res.text();
      seen.push(text);
      // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes, each read field by field by the assertions
      return { status: res.status, body: JSON.parse(text) as Record<string, any> };
    };
    const seedsOf = async (id: string) => (await served.db.select().from(tickets).where(eq(tickets.id, id)))[0].games.flatMap((g) => g.seeds);
    const settled = async (id: string) => served.site.settled(id);

    it('a known-seed ticket can be searched offline: the searcher beats the scripted agent on its seeds and ranks', async () => {
      const { token } = await createToken(served.db, { name: 'brute' });
      const res = await served.site.tickets.issue(apiPost('/api/tickets', { game: GAME, seedsPerGame: SEEDS }, token));
      expect(res.status).toBe(201);
      const ticket = ((await res.json()) as { ticket: TicketJson }).ticket;
      const seeds = ticket.games[0].seeds;
      expect(seeds).toHaveLength(SEEDS);
      const scripted = (await evaluateGame({ game: getGame(GAME), agent: 'scripted', seeds, observation: ['state'], browser })).episodes;
      const searched = await searchSeeds(seeds, 12);
      const score = (eps: EpisodeRecord[]) => mean(eps.map((e) => e.totals.score));
      expect(score(searched)).toBeGreaterThan(score(scripted));
      const sub = await served.site.handle(
        apiPost('/api/runs', { id: 'brute-known-seeds', agent: 'brute', settings: { observation: ['state'] }, ticket: ticket.id, episodes: searched }, token),
      );
      expect(sub.status).toBe(202);
      const status = await settled(((await sub.json()) as SubmissionStatus).submission.id);
      expect(status.result?.run.ranked, JSON.stringify(status.error)).toBe(SEEDS);
    }, 600_000);

    it('a live ticket shows no seed, refuses seeded and second resets and other tokens, and ranks what was played', async () => {
      const { token } = await createToken(served.db, { name: 'live player' });
      const { token: other } = await createToken(served.db, { name: 'someone else' });
      const issued = await served.site.tickets.issue(apiPost('/api/tickets', { game: GAME, seedsPerGame: SEEDS, mode: 'live', agent: 'brute-live' }, token));
      const issuedText = await issued.text();
      seen.push(issuedText);
      expect(issued.status, issuedText).toBe(201);
      const ticket = (JSON.parse(issuedText) as { ticket: TicketJson }).ticket;
      expect(ticket.mode).toBe('live');
      expect(ticket.games[0].seeds).toEqual([]);
      expect(ticket.live?.episodes.map((e) => e.game)).toEqual([GAME, GAME]);
      const seeds = await seedsOf(ticket.id);
      expect(seeds).toHaveLength(SEEDS);
      // A worker took the ticket's job: the answer names its listener, and the site's routes forward to it.
      const endpoint = ticket.live?.endpoint;
      expect(endpoint).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/live/${ticket.id}$`));

      expect((await call('reset', ticket.id, { seed: 7 }, token)).body.error.code).toBe('LIVE_REFUSED');
      expect((await call('reset', ticket.id, { seed: 7 }, token, endpoint)).body.error.code).toBe('LIVE_REFUSED');
      expect((await call('step', ticket.id, { action: 0 }, token)).body.error.code).toBe('RESET_NEEDED');
      const agent = await createAgent('scripted', GAME);
      const played: number[] = [];
      let submissionId = '';
      for (let episode = 0; episode < SEEDS; episode++) {
        // The first episode through the site, the second straight from the worker: the same play either way.
        const via = episode === 0 ? undefined : endpoint;
        const reset = await call('reset', ticket.id, {}, token, via);
        expect(reset.status, JSON.stringify(reset.body)).toBe(200);
        expect(reset.body.info.seed).toBeUndefined();
        expect(reset.body.info.episode).toEqual({ position: episode, game: GAME, of: SEEDS });
        // No restart, no rewind, and not for anyone else.
        expect((await call('reset', ticket.id, {}, token, via)).body.error.code).toBe('EPISODE_IN_PROGRESS');
        expect((await call('reset', ticket.id, {}, token)).body.error.code).toBe('EPISODE_IN_PROGRESS');
        for (const path of [undefined, endpoint]) {
          expect((await call('step', ticket.id, { action: 0 }, other, path)).body.error.code).toBe('TICKET_NOT_FOUND');
          expect((await call('close', ticket.id, {}, other, path)).body.error.code).toBe('TICKET_NOT_FOUND');
          expect((await call('step', ticket.id, { action: 0 }, 'agt_not_a_token', path)).body.error.code).toBe('INVALID_TOKEN');
        }
        // The agent gets a seed of its own: it never sees the episode's.
        await agent.reset({ manifest: getGame(GAME).manifest, seed: episode });
        let state = reset.body.info.state as VerifierState;
        for (let step = 0; ; step++) {
          const r = await call('step', ticket.id, { action: await agent.act({ observation: { state }, state, step }) }, token, via);
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          expect(r.body.info.episode).toBeUndefined();
          state = r.body.info.state as VerifierState;
          if (r.body.terminated || r.body.truncated) {
            played.push(r.body.info.score as number);
            if (episode === SEEDS - 1) {
              // The last step closes the ticket: that answer is the first that may, and does, show the seeds.
              expect(r.body.info.ticket?.live?.closed, JSON.stringify(r.body.info)).toBe(true);
              expect(r.body.info.ticket.games[0].seeds).toEqual(seeds);
              submissionId = r.body.info.ticket.submission.submission.id as string;
              seen.pop();
            }
            break;
          }
        }
      }
      for (const text of seen) for (const seed of seeds) expect(text.includes(String(seed)), `seed ${seed} in an answer`).toBe(false);
      expect((await call('reset', ticket.id, {}, token)).body.error.code).toBe('TICKET_CLOSED');
      expect((await call('reset', ticket.id, {}, token, endpoint)).body.error.code).toBe('TICKET_CLOSED');

      const status = await settled(submissionId);
      expect(status.submission.status, JSON.stringify(status.error)).toBe('accepted');
      expect(status.result?.run.ranked).toBe(SEEDS);
      expect(status.result?.episodes.map((e) => e.score)).toEqual(played);
      // Closed: the seeds are disclosed, so anyone can replay the episodes.
      const read = await served.site.tickets.read(apiGet(`/api/tickets/${ticket.id}`, token), ticket.id);
      const after = ((await read.json()) as { ticket: TicketJson }).ticket;
      expect(after.games[0].seeds).toEqual(seeds);
      expect(after.live?.closed).toBe(true);
    }, 600_000);

    it('keeps what a player that went away had played: the episode ends truncated at its deadline, with the cause', async () => {
      const { token } = await createToken(served.db, { name: 'leaver' });
      const issued = await served.site.tickets.issue(
        apiPost('/api/tickets', { game: GAME, seedsPerGame: 2, mode: 'live', agent: 'leaver', stepDeadlineMs: 1000 }, token),
      );
      const ticket = ((await issued.json()) as { ticket: TicketJson }).ticket;
      expect((await call('reset', ticket.id, {}, token)).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await call('step', ticket.id, { action: i % 4 }, token)).status).toBe(200);
      const rowsOf = () => served.db.select().from(liveEpisodes).where(eq(liveEpisodes.ticketId, ticket.id));
      for (let waited = 0; (await rowsOf()).length === 0 && waited < 20_000; waited += 250) await new Promise((r) => setTimeout(r, 250));
      const [row] = await rowsOf();
      expect(row.position).toBe(0);
      expect(row.record.actions).toHaveLength(5);
      expect(row.record.totals.truncated).toBe(true);
      expect(row.cause?.code).toBe('IDLE_TIMEOUT');
      // The ticket goes on with its next episode; closing it submits what was played.
      expect((await call('reset', ticket.id, {}, token)).body.info.episode.position).toBe(1);
      const closed = await call('close', ticket.id, {}, token);
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      expect(closed.body.ticket.live.closed).toBe(true);
      expect(closed.body.ticket.live.episodes.map((e: { ended: boolean }) => e.ended)).toEqual([true, true]);
      // Both were cut off (the second by the close): kept with their causes, and nothing was played to submit.
      const rows = await rowsOf();
      expect(rows.map((r) => r.cause?.code).sort()).toEqual(['IDLE_TIMEOUT', 'TICKET_CLOSED']);
      expect(closed.body.ticket.submission).toBeNull();
    }, 300_000);

    it("the site reads a ticket's host once, and again only when the host it knew no longer takes the call", async () => {
      const { token } = await createToken(served.db, { name: 'forwarded' });
      const issued = await served.site.tickets.issue(apiPost('/api/tickets', { game: GAME, seedsPerGame: 2, mode: 'live', agent: 'forwarded' }, token));
      const ticket = ((await issued.json()) as { ticket: TicketJson }).ticket;
      const host = new URL(ticket.live!.endpoint!).origin;
      // A stand-in worker at another address: it passes calls on to the real one, then says it no longer plays the ticket.
      let gone = false;
      let calls = 0;
      const stub = createServer((req, res) => {
        calls++;
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', async () => {
          if (gone) {
            res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'not played here' } }));
            return;
          }
          const answer = await fetch(`${host}${req.url}`, {
            method: 'POST',
            headers: { authorization: req.headers.authorization! },
            body: Buffer.concat(chunks),
          });
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type')! }).end(Buffer.from(await answer.arrayBuffer()));
        });
      });
      await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
      const stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
      const setHost = (url: string) =>
        served.db
          .update(tickets)
          .set({ live: sql`jsonb_set(${tickets.live}, '{host,url}', ${JSON.stringify(url)}::jsonb)` })
          .where(eq(tickets.id, ticket.id));
      let reads = 0;
      const db = new Proxy(served.db, {
        get(target, key) {
          if (key === 'select') reads++;
          const value = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as Db;
      const routes = new LiveRoutes({ db, jobs: async () => ({}) as JobQueue });
      const viaRoutes = async (what: LiveCallName, body: unknown) => {
        const res = await routes.call(what, ticket.id, apiPost(`/api/live/${ticket.id}/${what}`, body, token));
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      try {
        await setHost(stubUrl);
        expect((await viaRoutes('reset', {})).status).toBe(200);
        for (let i = 0; i < 5; i++) expect((await viaRoutes('step', { action: i % 4 })).status).toBe(200);
        expect({ reads, calls }).toEqual({ reads: 1, calls: 6 });
        // The ticket moves back to the real worker and the stand-in no longer plays it: read again, sent there.
        await setHost(host);
        gone = true;
        const moved = await viaRoutes('step', { action: 1 });
        expect(moved.status, JSON.stringify(moved.body)).toBe(200);
        expect({ reads, calls }).toEqual({ reads: 2, calls: 7 });
        expect((await viaRoutes('step', { action: 2 })).status).toBe(200);
        expect({ reads, calls }).toEqual({ reads: 2, calls: 7 });
        // A host that does not take the call and is still the one the ticket names: the player is told to retry.
        await setHost(stubUrl);
        const fresh = new LiveRoutes({ db, jobs: async () => ({}) as JobQueue });
        const busy = await fresh.call('step', ticket.id, apiPost(`/api/live/${ticket.id}/step`, { action: 0 }, token));
        expect(busy.status).toBe(503);
        expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('BUSY');
        await setHost(host);
        expect((await call('close', ticket.id, {}, token)).status).toBe(200);
      } finally {
        await new Promise((r) => stub.close(r));
      }
    }, 300_000);

    it("carries the player's claims into the run: harness and training as claimed, a bad field named, none after the close", async () => {
      const { token } = await createToken(served.db, { name: 'claimer' });
      const issued = await served.site.tickets.issue(apiPost('/api/tickets', { game: GAME, seedsPerGame: 1, mode: 'live', agent: 'claimer' }, token));
      const ticket = ((await issued.json()) as { ticket: TicketJson }).ticket;
      expect(ticket.live?.claimsUrl).toBe(`/api/live/${ticket.id}/claims`);
      const bad = await call('claims', ticket.id, { training: { algorithm: 'ppo' } }, token);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/Invalid claims at "training.backend"/);
      const training = { algorithm: 'ppo', backend: 'cpu', totalTimesteps: 512, checkpointSha256: 'c'.repeat(64), config: { lr: 1e-3 } };
      const learningCurve = [
        { step: 256, meanReturn: 1 },
        { step: 512, meanReturn: 2 },
      ];
      expect((await call('claims', ticket.id, { harness: 'first try' }, token)).status).toBe(200);
      // A later call replaces the earlier one.
      expect((await call('claims', ticket.id, { harness: 'my trainer', training, learningCurve }, token)).status).toBe(200);
      expect((await call('reset', ticket.id, {}, token)).status).toBe(200);
      let r = await call('step', ticket.id, { action: 0 }, token);
      for (let i = 1; !r.body.terminated && !r.body.truncated; i++) r = await call('step', ticket.id, { action: i % 4 }, token);
      const status = await settled(r.body.info.ticket.submission.submission.id);
      expect(status.result?.run).toMatchObject({ episodes: 1 });
      const [run] = await served.db.select().from(runs).where(eq(runs.ticketId, ticket.id));
      expect(run).toMatchObject({ kind: 'training', harness: 'my trainer', training, learningCurve });
      expect((await call('claims', ticket.id, { harness: 'too late' }, token)).status).toBe(409);
    }, 300_000);

    it('refuses a reset that races another: one episode, one session', async () => {
      const { token } = await createToken(served.db, { name: 'racer' });
      const issued = await served.site.tickets.issue(apiPost('/api/tickets', { game: GAME, seedsPerGame: 2, mode: 'live', agent: 'racer' }, token));
      const ticket = ((await issued.json()) as { ticket: TicketJson }).ticket;
      const both = await Promise.all([call('reset', ticket.id, {}, token), call('reset', ticket.id, {}, token, ticket.live?.endpoint)]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(both.find((r) => r.status === 409)?.body.error.code).toBe('EPISODE_IN_PROGRESS');
      expect(both.find((r) => r.status === 200)?.body.info.episode.position).toBe(0);
      const closed = await call('close', ticket.id, {}, token);
      expect(closed.body.ticket.live.episodes.map((e: { ended: boolean }) => e.ended)).toEqual([true, false]);
    }, 300_000);

    it('serves pixels of the size and colour a live ticket asks for, and refuses a pixel size on a known-seed ticket', async () => {
      const { token } = await createToken(served.db, { name: 'pixel player' });
      const ask = {
        game: GAME,
        seedsPerGame: 1,
        mode: 'live',
        agent: 'pixel-player',
        observation: ['pixels'],
        pixels: { width: 32, height: 24, grayscale: false },
      };
      const issued = await served.site.tickets.issue(apiPost('/api/tickets', ask, token));
      const ticket = ((await issued.json()) as { ticket: TicketJson }).ticket;
      expect(ticket.live?.pixels).toEqual({ width: 32, height: 24, grayscale: false });
      const r = await call('reset', ticket.id, {}, token);
      expect(r.status).toBe(200);
      expect(r.body.observation.pixels).toMatchObject({ width: 32, height: 24, channels: 3 });
      expect(Buffer.from(r.body.observation.pixels.data, 'base64').length).toBe(32 * 24 * 3);
      expect((await call('close', ticket.id, {}, token)).status).toBe(200);
      const refused = await served.site.tickets.issue(apiPost('/api/tickets', { game: GAME, pixels: { width: 32, height: 24 } }, token));
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/"pixels" are for live tickets/);
    }, 300_000);

    it('the default board ranks what the server played; a known-seed entry is in the view of every entry', async () => {
      const names = (rows: { agent: { name: string } }[]) => rows.map((r) => r.agent.name);
      const server = await loadLeaderboard(served.db, { suite: 'all' });
      expect(server.play).toBe('server');
      expect(names(server.rows)).toContain('brute-live');
      expect(names(server.rows)).not.toContain('brute');
      expect(server.rows.every((r) => r.serverPlayed && Object.values(r.cells).every((c) => c.serverPlayed))).toBe(true);
      const any = await loadLeaderboard(served.db, { suite: 'all', play: 'any' });
      expect(names(any.rows)).toEqual(expect.arrayContaining(['brute', 'brute-live']));
      expect(any.rows.find((r) => r.agent.name === 'brute')).toMatchObject({ serverPlayed: false, cells: { [GAME]: { serverPlayed: false, ticketed: true } } });
      // Known-seed entries stay on the site, in a view of their own.
      expect(any.total).toBeGreaterThan(server.total);
    });
  });
}
