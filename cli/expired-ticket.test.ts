/**
 * Expired tickets through the command line, against a real HTTP server on 127.0.0.1 (the site's API
 * routes, tickets living 1 ms): `eval --ticket` refuses to play one, and `submit` of a run on one,
 * which the server stores unranked, exits 3 with the reason on one line instead of 0.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getGame } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { useBrowser } from '../gym/testing';
import { apiPost, testDrivers, useServedSite } from '../leaderboard/test-support';
import type { TicketJson } from '../leaderboard/tickets';
import { createToken } from '../leaderboard/tokens';
import { cliRunner } from './testing';

const cli = cliRunner({ timeoutMs: 300_000, isolated: true });

const gym = useBrowser();

for (const driver of testDrivers()) {
  describe(`${driver.driver}: expired tickets on the command line`, () => {
    const served = useServedSite(driver, gym.browser, { ttlMs: 1 });
    let token: string;
    let ticket: TicketJson;

    beforeAll(async () => {
      token = (await createToken(served.db, { name: 'late' })).token;
      const res = await served.site.tickets.issue(apiPost('/api/tickets', { game: 'snake', seedsPerGame: 3 }, token));
      ticket = ((await res.json()) as { ticket: TicketJson }).ticket;
      await new Promise((r) => setTimeout(r, 5));
    });

    it('eval --ticket refuses to play an expired ticket, saying so, and plays nothing', async () => {
      const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'arcade-expired-')), 'run.jsonl');
      await expect(
        cli(['eval', '--ticket', ticket.id, '--agent', 'random', '--server', served.url, '--out', out], { ARCADE_TOKEN: token }),
      ).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringMatching(new RegExp(`ticket ${ticket.id} expired at ${ticket.expiresAt.replace(/[.]/g, '\\.')}: a run on it would not be ranked`)),
      });
      expect(existsSync(out)).toBe(false);
    });

    it('submit of a run on an expired ticket exits 3, with why nothing is ranked on one line', async () => {
      // Played anyway (as a client that did not ask the server would): the records are genuine.
      const { episodes } = await evaluateGame({
        game: getGame('snake'),
        agent: 'random',
        seeds: ticket.games[0].seeds,
        observation: ['state'],
        browser: await gym.browser(),
      });
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'arcade-expired-')), 'run.jsonl');
      writeFileSync(file, `${episodes.map((e) => JSON.stringify(e)).join('\n')}\n`);
      const failure = (await cli(['submit', file, '--ticket', ticket.id, '--server', served.url, '--agent', 'late-agent', '--observation', 'state'], {
        ARCADE_TOKEN: token,
      }).then(
        () => null,
        (e: unknown) => e,
      )) as { code: number; stdout: string; stderr: string } | null;
      expect(failure).not.toBeNull();
      expect(failure?.code).toBe(3);
      expect(failure?.stdout).toMatch(/Accepted: run [0-9a-f-]{36}, 3 episodes verified by replay, 0 ranked on snake/);
      const line = failure!.stderr.split('\n').find((l) => l.startsWith('arcade-gym submit: '));
      expect(line).toMatch(new RegExp(`none of its 3 episodes is ranked: Ticket ${ticket.id} expired at .*, before the run was submitted`));
    });
  });
}
