/**
 * Verification that does not block: a submission whose replay is slow (a real one, in Chromium)
 * is stopped when its budget is spent, and another token's submission, queued behind it on the
 * only slot, is verified right after, not when the slow one would have finished.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getGame, loadCatalog } from '../gym/catalog';
import { evaluateGame, replayActions } from '../gym/eval';
import type { EpisodeRecord } from '../gym/schema';
import { useBrowser } from '../gym/testing';
import type { Database, Db } from './db';
import { syncGames } from './games';
import { budgetMsFor, type VerifyBudget } from './submissions';
import type { SubmissionStatus } from './submission-schema';
import { apiPost, testDrivers, testSite } from './test-support';
import { createToken } from './tokens';
import type { TicketJson } from './tickets';
import { VerifierBrowsers, verifyAbortable } from './verifier-browser';
import type { VerifyEpisode } from './verify-run';

const gym = useBrowser();
/**
 * A (WebGL) platformer episode of 300 idle steps claiming 10 s of virtual time each: its replay
 * runs until the page's 30 s step timeout stops the first batch of steps.
 */
let slow: EpisodeRecord;
let quick: EpisodeRecord;
const BUDGET: VerifyBudget = { maxSteps: 10_000, baseMs: 10_000, perStepMs: 1 };
const GRACE_MS = 500; // testSite's

beforeAll(async () => {
  const noop = getGame('platformer').manifest.preset.findIndex((p) => p.action.type === 'wait');
  const g = await gym.env({ game: 'platformer', seed: 3, observation: 'state', msPerStep: 10_000, maxSteps: 1000 });
  const one = await replayActions(g, 3, [noop]);
  // The steps after the first are not what the game does: the replay finds that out only after playing them all.
  slow = { ...one, actions: Array(300).fill(noop), steps: Array.from({ length: 300 }, (_, i) => ({ ...one.steps[0], step: i })) };
  const s = await gym.env({ game: 'snake', seed: 5, observation: 'state' });
  quick = await replayActions(s, 5, [1, 1, 4, 4, 2, 2]);
});

for (const driver of testDrivers()) {
  describe(`${driver.driver}: the verification budget`, () => {
    let database: Database;
    let db: Db;
    let site: ReturnType<typeof testSite>;
    const browsers = new VerifierBrowsers();

    beforeAll(async () => {
      database = await driver.open();
      db = database.db;
      await syncGames(db, loadCatalog());
      // As the server runs it: each job in a browser of its own, closed with a job past its budget.
      site = testSite(db, { browsers, slots: 1, budget: BUDGET });
    }, 600_000);

    afterAll(async () => {
      await site?.close();
      await browsers.close();
      await database?.close();
      await driver.cleanup();
    });

    it('stops a slow submission at its budget, and another token’s waits no longer than that', async () => {
      const a = await createToken(db, { name: 'slow-token' });
      const b = await createToken(db, { name: 'quick-token' });
      const res = await site.handle(
        apiPost('/api/runs', { id: 'run-slow-0001', agent: 'slowpoke', settings: { observation: ['state'] }, episodes: [slow] }, a.token),
      );
      const slowId = ((await res.json()) as SubmissionStatus).submission.id;
      for (let i = 0; i < 400 && (await site.status(slowId)).submission.status !== 'verifying'; i++) await new Promise((r) => setTimeout(r, 50));
      const queued = await site.handle(
        apiPost('/api/runs', { id: 'run-quick-0001', agent: 'quickie', settings: { observation: ['state'] }, episodes: [quick] }, b.token),
      );
      const quickStatus = (await queued.json()) as SubmissionStatus;
      expect(quickStatus.submission).toMatchObject({ status: 'queued', queuePosition: 0 });

      const done = await site.settled(quickStatus.submission.id);
      const stopped = await site.status(slowId);
      expect(done.submission.status, JSON.stringify(done.error)).toBe('accepted');
      // The slow one ran out of its budget (left alone it would have run until the 30 s step timeout)...
      const slowBudget = budgetMsFor(BUDGET, slow.actions.length);
      expect(stopped.submission.status).toBe('rejected');
      expect(stopped.error).toMatchObject({ code: 'VERIFICATION_TIMEOUT', details: { budgetMs: slowBudget } });
      // ...and the other token's started no later than the slow one's budget and grace after it (plus a little scheduling slack).
      const waited = Date.parse(done.submission.startedAt!) - Date.parse(stopped.submission.startedAt!);
      expect(waited).toBeLessThan(slowBudget + GRACE_MS + 1_500);
    });

    it('a replay that fails because the spent budget closed its browser is rejected for the budget, not as a server error', async () => {
      // Stands in for a replay caught mid-step or mid-measurement: it fails only when the job is
      // stopped, with the error a page closed under it gives (the race the real test above can hit).
      const closedUnderIt: VerifyEpisode = (_record, signal) =>
        new Promise((_resolve, reject) =>
          signal?.addEventListener('abort', () => reject(new Error('Target page, context or browser has been closed')), { once: true }),
        );
      const budget: VerifyBudget = { maxSteps: 10_000, baseMs: 300, perStepMs: 1 };
      const other = testSite(db, { verify: closedUnderIt, slots: 1, budget });
      try {
        const { token } = await createToken(db, { name: 'closed-token' });
        const res = await other.handle(
          apiPost('/api/runs', { id: 'run-closed-0001', agent: 'closed', settings: { observation: ['state'] }, episodes: [quick] }, token),
        );
        const status = await other.settled(((await res.json()) as SubmissionStatus).submission.id);
        expect(status.submission.status).toBe('rejected');
        expect(status.error).toMatchObject({ code: 'VERIFICATION_TIMEOUT', details: { budgetMs: budgetMsFor(budget, quick.actions.length) } });
      } finally {
        await other.close();
      }
    });

    it('releases the ticket of a run rejected for the server’s reasons once, and says so', async () => {
      // The same honest records meet a timeout, then a server failure, then a working replay.
      let mode: 'hang' | 'fail' | 'replay' = 'hang';
      const browser = await gym.browser();
      const verify: VerifyEpisode = (record, signal) =>
        mode === 'replay'
          ? verifyAbortable(record, browser, signal)
          : mode === 'fail'
            ? Promise.reject(new Error('disk on fire'))
            : new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
      const flaky = testSite(db, { verify, slots: 1, budget: { maxSteps: 10_000, baseMs: 5_000, perStepMs: 5 } });
      try {
        const { token } = await createToken(db, { name: 'unlucky-token' });
        const issued = await flaky.tickets.issue(apiPost('/api/tickets', { game: 'snake', seedsPerGame: 3 }, token));
        const ticket = ((await issued.json()) as { ticket: TicketJson }).ticket;
        const { episodes } = await evaluateGame({ game: getGame('snake'), agent: 'random', seeds: ticket.games[0].seeds, observation: ['state'], browser });
        const body = (id: string) => ({ id, agent: 'unlucky', settings: { observation: ['state'] }, ticket: ticket.id, episodes });
        const send = async (id: string) => {
          const res = await flaky.handle(apiPost('/api/runs', body(id), token));
          const json = (await res.json()) as SubmissionStatus & { error?: { code: string } };
          return res.status === 202 ? flaky.settled(json.submission.id) : { status: res.status, code: json.error?.code };
        };

        const timedOut = (await send('run-unlucky-1')) as SubmissionStatus;
        expect(timedOut.error).toMatchObject({ code: 'VERIFICATION_TIMEOUT', details: { ticketReleased: true } });
        expect(timedOut.error?.message).toMatch(new RegExp(`ticket ${ticket.id} was released \\(once per ticket\\)`));

        // Released: a server failure on the next try releases nothing more...
        mode = 'fail';
        const failed = (await send('run-unlucky-2')) as SubmissionStatus;
        expect(failed.error).toMatchObject({ code: 'INTERNAL', details: { ticketReleased: false } });
        expect(failed.error?.message).toMatch(/stays used: it was already released once/);
        expect(await send('run-unlucky-3')).toEqual({ status: 409, code: 'TICKET_USED' });
        // ...while a retry of the failed id (which holds the ticket) is queued again and, replayed, ranks.
        mode = 'replay';
        const again = await flaky.handle(apiPost('/api/runs', body('run-unlucky-2'), token));
        expect(again.status).toBe(202);
        const accepted = await flaky.settled(((await again.json()) as SubmissionStatus).submission.id);
        expect(accepted.submission.status, JSON.stringify(accepted.error)).toBe('accepted');
        expect(accepted.result?.run).toMatchObject({ ticket: ticket.id, ranked: 3 });
      } finally {
        await flaky.close();
      }
    });
  });
}
