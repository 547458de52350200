/**
 * Ticket shopping through the submission path (tickets drawn with POST /api/tickets, runs through
 * POST /api/runs, replayed in Chromium), on PGlite and PostgreSQL: a token that draws three Snake
 * tickets, plays them all and submits only the best is shown with 3 drawn and 1 submitted on the
 * agent's and the run's pages, and ranked on every seed it drew, the unsubmitted ones at the
 * forfeit score; once it submits the rest, nothing is forfeited. A token that drew one ticket and
 * submitted it is unaffected, and so is a token's other agent once the tickets are settled.
 */
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { getGame } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { mean } from '../gym/stats';
import type { EpisodeRecord } from '../gym/schema';
import { useBrowser } from '../gym/testing';
import { loadAgent, loadLeaderboard, loadRun } from './queries';
import type { SubmissionStatus } from './submission-schema';
import { apiPost, testDrivers, useServedSite } from './test-support';
import type { TicketJson } from './tickets';
import { createToken } from './tokens';

const gym = useBrowser();
let browser: Browser;

beforeAll(async () => {
  browser = await gym.browser();
});

const scoreOf = (eps: EpisodeRecord[]) => mean(eps.map((e) => e.totals.score));

for (const driver of testDrivers()) {
  describe(`${driver.driver}: drawn tickets count`, () => {
    const served = useServedSite(driver, gym.browser);

    const draw = async (token: string): Promise<TicketJson> => {
      const res = await served.site.tickets.issue(apiPost('/api/tickets', { game: 'snake', seedsPerGame: 3 }, token));
      expect(res.status).toBe(201);
      return ((await res.json()) as { ticket: TicketJson }).ticket;
    };
    const play = async (t: TicketJson) =>
      (await evaluateGame({ game: getGame('snake'), agent: 'scripted', seeds: t.games[0].seeds, observation: ['state'], browser })).episodes;
    const submit = async (token: string, id: string, agent: string, t: TicketJson, episodes: EpisodeRecord[]) => {
      const res = await served.site.handle(apiPost('/api/runs', { id, agent, settings: { observation: ['state'] }, ticket: t.id, episodes }, token));
      expect(res.status).toBe(202);
      const status = await served.site.settled(((await res.json()) as SubmissionStatus).submission.id);
      expect(status.result?.run.ranked, JSON.stringify(status.error)).toBe(3);
      return status.result!.run.id;
    };

    it('shows 3 drawn and 1 submitted for a token that submitted its best of three, and ranks it over all nine seeds', async () => {
      const { token } = await createToken(served.db, { name: 'shopper' });
      const drawn = [await draw(token), await draw(token), await draw(token)];
      const played = await Promise.all(drawn.map(play));
      const best = played.map(scoreOf).indexOf(Math.max(...played.map(scoreOf)));
      const runId = await submit(token, 'run-best-of-three', 'shopper', drawn[best], played[best]);

      const page = await loadAgent(served.db, 'shopper');
      expect(page?.tickets).toEqual([{ gameId: 'snake', drawn: 3, submitted: 1, ranked: 1, forfeitedSeeds: 6 }]);
      // The six unsubmitted seeds count at the forfeit score (0 on Snake): the mean is over all nine.
      const sum = played[best].reduce((a, e) => a + e.totals.score, 0);
      expect(page?.games[0].cell).toMatchObject({ episodes: 3, seeds: 9, forfeitedSeeds: 6, meanScore: sum / 9 });
      expect((await loadRun(served.db, runId))?.tickets).toEqual(page?.tickets);
      const row = (await loadLeaderboard(served.db, { play: 'any', suite: 'all' })).rows.find((r) => r.agent.name === 'shopper');
      expect(row?.cells.snake).toMatchObject({ seeds: 9, meanScore: sum / 9 });

      // Submitting the other two settles them: every draw is ranked, nothing is forfeited, the mean is over what was played.
      for (const i of [0, 1, 2].filter((i) => i !== best)) await submit(token, `run-the-rest-${i}`, 'shopper', drawn[i], played[i]);
      const after = await loadAgent(served.db, 'shopper');
      expect(after?.tickets).toEqual([{ gameId: 'snake', drawn: 3, submitted: 3, ranked: 3, forfeitedSeeds: 0 }]);
      expect(after?.games[0].cell).toMatchObject({ episodes: 9, seeds: 9, forfeitedSeeds: 0 });
      expect(after?.games[0].cell.meanScore).toBeCloseTo(mean(played.flat().map((e) => e.totals.score)), 9);
    });

    it('leaves an honest one-ticket agent as it played, and a token’s other agent free of tickets settled elsewhere', async () => {
      const { token } = await createToken(served.db, { name: 'honest' });
      const t = await draw(token);
      const eps = await play(t);
      await submit(token, 'run-honest', 'honest-a', t, eps);
      const page = await loadAgent(served.db, 'honest-a');
      expect(page?.tickets).toEqual([{ gameId: 'snake', drawn: 1, submitted: 1, ranked: 1, forfeitedSeeds: 0 }]);
      expect(page?.games[0].cell).toMatchObject({ seeds: 3, forfeitedSeeds: 0, meanScore: scoreOf(eps) });
      // A ticket drawn and not yet submitted counts for each of the token's agents on the game...
      const next = await draw(token);
      expect((await loadAgent(served.db, 'honest-a'))?.games[0].cell).toMatchObject({ seeds: 6, forfeitedSeeds: 3 });
      // ...until a run on it is stored: then it is that run's agent's alone.
      await submit(token, 'run-honest-b', 'honest-b', next, await play(next));
      const a = await loadAgent(served.db, 'honest-a');
      expect(a?.tickets).toEqual([{ gameId: 'snake', drawn: 1, submitted: 1, ranked: 1, forfeitedSeeds: 0 }]);
      expect(a?.games[0].cell).toMatchObject({ seeds: 3, forfeitedSeeds: 0, meanScore: scoreOf(eps) });
      expect((await loadAgent(served.db, 'honest-b'))?.tickets).toEqual([{ gameId: 'snake', drawn: 1, submitted: 1, ranked: 1, forfeitedSeeds: 0 }]);
    });
  });
}
