/**
 * Policy runs: a checkpoint handed to the server is played by a worker on the job queue, on seeds
 * the server draws and shows only once the run is in, and ranked like any run; bad input is refused
 * with the field it is about. On PGlite and PostgreSQL, through the API and `submit --checkpoint`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runs, tickets } from '../drizzle/schema';
import { genericPolicyFile } from '../gym/agents';
import { loadCatalog } from '../gym/catalog';
import { useBrowser } from '../gym/testing';
import { evalBatchHandler } from '../jobs/handlers';
import { memoryPglite, openJobQueue, type JobQueue } from '../jobs/queue';
import { pgliteJobsSql } from '../jobs/sql';
import { Worker } from '../jobs/worker';
import type { Database, Db } from './db';
import { syncGames } from './games';
import { loadRun } from './queries';
import { apiGet, serveTestSite, testDrivers, testSite, type TestSite } from './test-support';
import type { TicketJson } from './ticket-schema';
import { createToken } from './tokens';
import { verifyAbortable } from './verifier-browser';
import { cliRunner } from '../cli/testing';

const cli = cliRunner({ timeoutMs: 300_000, isolated: true });

/** A real policy: the generic agent's, committed for snake. */
const CHECKPOINT = genericPolicyFile('snake')!;

const gym = useBrowser();
let browser: Browser;
beforeAll(async () => {
  browser = await gym.browser();
});

const policyRun = (query: string, body: BodyInit, token: string, type = 'application/octet-stream') =>
  new Request(`http://arcade.test/api/policy-runs?${query}`, { method: 'POST', headers: { 'content-type': type, authorization: `Bearer ${token}` }, body });

for (const driver of testDrivers()) {
  describe(`${driver.driver}: policy runs`, () => {
    let database: Database;
    let db: Db;
    let site: TestSite;
    let jobs: JobQueue;
    let worker: Worker;
    let token: string;

    beforeAll(async () => {
      database = await driver.open();
      db = database.db;
      await syncGames(db, loadCatalog());
      token = (await createToken(db, { name: 'policy-owner' })).token;
      jobs = await openJobQueue(pgliteJobsSql(await memoryPglite()));
      worker = new Worker({
        jobs,
        queues: ['eval'],
        handlers: { eval: evalBatchHandler(async () => browser) },
        concurrency: 1,
        pollMs: 100,
        log: () => undefined,
      });
      await worker.start();
      site = testSite(db, {
        verify: (r, signal) => verifyAbortable(r, browser, signal),
        policy: { jobs, dir: mkdtempSync(path.join(os.tmpdir(), 'arcade-policy-runs-')) },
      });
    }, 120_000);

    afterAll(async () => {
      await worker?.stop();
      await site?.close();
      await jobs?.close();
      await database?.close();
      await driver.cleanup();
    });

    it('a worker plays the checkpoint on seeds shown only once the run is in, and it ranks', async () => {
      const res = await site.policyRuns!.submit(policyRun('agent=snake-policy&game=snake&mode=sample&seedsPerGame=3', readFileSync(CHECKPOINT), token));
      const text = await res.text();
      expect(res.status, text).toBe(202);
      const { ticket } = JSON.parse(text) as { ticket: TicketJson };
      expect(ticket).toMatchObject({ mode: 'policy', policy: { agent: 'snake-policy', mode: 'sample', state: 'playing' } });
      expect(ticket.games.map((g) => g.seeds)).toEqual([[]]);
      const [row] = await db.select().from(tickets).where(eq(tickets.id, ticket.id));
      for (const seed of row.games[0].seeds) expect(text).not.toContain(String(seed));

      await site.policyRuns!.idle();
      const read = await site.tickets.read(apiGet(`/api/tickets/${ticket.id}`, token), ticket.id);
      const after = ((await read.json()) as { ticket: TicketJson }).ticket;
      expect(after.policy?.state, JSON.stringify(after.policy)).toBe('submitted');
      expect(after.games[0].seeds).toEqual(row.games[0].seeds);
      const status = await site.settled(after.policy!.statusUrl!.split('/').pop()!);
      expect(status.error).toBeUndefined();
      expect(status.result?.run).toMatchObject({ episodes: 3, ranked: 3 });
      const [run] = await db.select().from(runs).where(eq(runs.ticketId, ticket.id));
      expect(run.harness).toBe('policy run (ppo checkpoint, sample)');
      expect(run.codeVersion).toBe(`checkpoint sha256 ${after.policy!.checkpointSha256}`);
      const detail = await loadRun(db, run.id);
      expect(detail?.episodes.map((e) => e.seed).sort()).toEqual([...row.games[0].seeds].sort());
      expect(detail?.episodes.every((e) => e.verification === 'verified' && e.ticketed)).toBe(true);
    }, 300_000);

    it('refuses what is not a policy run, naming what is wrong, and starts nothing', async () => {
      const body = readFileSync(CHECKPOINT);
      const before = (await db.select().from(tickets)).length;
      const cases: [Request, number, RegExp][] = [
        [policyRun('agent=a&game=snake', body, 'agt_nope'), 401, /token/i],
        [policyRun('agent=a&game=snake', body, token, 'application/json'), 415, /application\/octet-stream/],
        [policyRun('agent=a&game=snake', 'not a checkpoint', token), 400, /not an arcade-gym checkpoint/],
        [policyRun('agent=a', body, token), 400, /exactly one of "suite" or "game"/],
        [policyRun('agent=a&game=snake&mode=best', body, token), 400, /at "mode"/],
        [policyRun('agent=a&game=no-such-game', body, token), 422, /no-such-game/],
      ];
      for (const [request, code, message] of cases) {
        const res = await site.policyRuns!.submit(request);
        const answer = (await res.json()) as { error: { message: string } };
        expect(res.status, answer.error.message).toBe(code);
        expect(answer.error.message).toMatch(message);
      }
      const other = (await createToken(db, { name: 'other' })).token;
      const taken = await site.policyRuns!.submit(policyRun('agent=snake-policy&game=snake', body, other));
      expect(taken.status).toBe(403);
      expect((await db.select().from(tickets)).length).toBe(before);
    });

    it('submit --checkpoint hands the policy over from the command line and follows the run to its verdict', async () => {
      const http = await serveTestSite(site);
      try {
        const { stdout, stderr } = await cli(
          ['submit', '--checkpoint', CHECKPOINT, '--game', 'snake', '--agent', 'cli-policy', '--seeds', '2', '--server', http.url],
          { ARCADE_TOKEN: token },
        );
        expect(stderr).toMatch(/Policy run on ticket tkt_\S+ .*: the server plays .* on game snake/);
        expect(stdout).toMatch(/Accepted: run [0-9a-f-]{36}, 2 episodes verified by replay, 2 ranked on snake/);
        await expect(cli(['submit', '--checkpoint', CHECKPOINT, 'run.jsonl', '--game', 'snake'], { ARCADE_TOKEN: token })).rejects.toMatchObject({
          code: 2,
          stderr: expect.stringMatching(/--checkpoint submits a policy, not run files/),
        });
        await expect(cli(['submit', 'run.jsonl', '--mode', 'sample'], { ARCADE_TOKEN: token })).rejects.toMatchObject({
          code: 2,
          stderr: expect.stringMatching(/--mode is for --checkpoint/),
        });
      } finally {
        await http.close();
      }
    }, 300_000);
  });
}
