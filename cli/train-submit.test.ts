/**
 * `arcade-gym train … --submit` against a real HTTP server on 127.0.0.1 (the site's API routes on
 * PGlite and, with TEST_DATABASE_URL, PostgreSQL): a tiny PPO is trained, its final policy plays a
 * ticket, and the run is stored ranked, replayed by the server, with its learning curve, settings,
 * backend and checkpoint sha256. On PGlite it plays a live ticket (the default: the server plays
 * the seeds it keeps hidden); on PostgreSQL a known-seed ticket as jobs (`--known-seeds --queue`,
 * the embedded queue with workers in the CLI's process). Then the learning-curve and training
 * fields' bad input: a 400 naming the field.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { agents, runs, tickets } from '../drizzle/schema';
import { getGame } from '../gym/catalog';
import { useBrowser } from '../gym/testing';
import { loadAgent, loadLeaderboard, loadRun } from '../leaderboard/queries';
import { MAX_LEARNING_CURVE_POINTS, MAX_TRAINING_CONFIG_BYTES, type RunSubmissionInput } from '../leaderboard/submission-schema';
import { fakeRecord, testDrivers, useServedSite } from '../leaderboard/test-support';
import { DEFAULT_SEEDS_PER_GAME } from '../leaderboard/scoring';
import { createToken } from '../leaderboard/tokens';
import { learningCurveFrom } from './train-submit';
import { cliRunner } from './testing';

// No ARCADE_TOKEN or DATABASE_URL from the caller's shell: each test says what it uses.
const cli = cliRunner({ timeoutMs: 540_000, isolated: true });

/** Without --ticket-seeds the server draws its default per game. */
const SEEDS = DEFAULT_SEEDS_PER_GAME;
/** A tiny PPO on snake: 4 updates of 2 envs × 64 steps, on the CPU backend, one held-out episode against the baselines. */
const TINY = ['train', '--game', 'snake', '--steps', '512', '--envs', '2', '--backend', 'cpu', '--seed', '5', '--eval-episodes', '1'];

const gym = useBrowser();

describe('the learning curve from metrics.jsonl', () => {
  const line = (o: Record<string, unknown>) => JSON.stringify(o);
  it('takes one point per update with a mean return, from the last run in the file, and thins long runs keeping both ends', () => {
    const text = [
      line({ kind: 'config', command: {} }),
      line({ update: 1, globalStep: 64, episodeReturnMean: 1, policyLoss: 0.1 }),
      line({ kind: 'config', command: {} }),
      line({ update: 1, globalStep: 128, episodeReturnMean: null, policyLoss: 0.2 }),
      line({ update: 2, globalStep: 256, episodeReturnMean: 2.5, episodeLengthMean: 30, valueLoss: null, entropy: 1.3, stepsPerSec: 99 }),
      line({ update: 3, globalStep: 384, episodeReturnMean: 3, approxKl: 0.01, explainedVariance: 0.4, learningRate: 0.001 }),
    ].join('\n');
    expect(learningCurveFrom(text)).toEqual([
      { step: 256, meanReturn: 2.5, update: 2, meanLength: 30, entropy: 1.3 },
      { step: 384, meanReturn: 3, update: 3, approxKl: 0.01, explainedVariance: 0.4, learningRate: 0.001 },
    ]);
    const long = Array.from({ length: 25 }, (_, i) => line({ update: i + 1, globalStep: (i + 1) * 10, episodeReturnMean: i })).join('\n');
    const thinned = learningCurveFrom(long, 5);
    expect(thinned.map((p) => p.step)).toEqual([10, 70, 130, 190, 250]);
    expect(() => learningCurveFrom('{"update": 1}')).toThrow(/metrics.jsonl:1 is not an update's metrics \(globalStep/);
  });
});

describe('train --submit refuses flag mistakes before training', () => {
  it('names what is missing or misplaced', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'arcade-train-flags-'));
    const expectUsage = (args: string[], message: RegExp, env: Record<string, string> = {}) =>
      expect(cli([...TINY, '--out', out, ...args], env)).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(message) });
    await expectUsage(['--submit'], /--submit .* needs an API token: pass --token or set ARCADE_TOKEN/);
    await expectUsage(['--server', 'http://127.0.0.1:9'], /--server is for --submit; add --submit or drop it/);
    await expectUsage(['--agent', 'x', '--queue'], /--agent, --queue are for --submit/);
    await expectUsage(['--submit', '--token', 't', '--workers', '2'], /--batch and --workers are for --queue/);
    await expectUsage(['--submit', '--token', 't', '--queue'], /--queue plays a ticket whose seeds are known .*: add --known-seeds or drop --queue/);
    await expectUsage(['--submit', '--agent', 'no spaces'], /--agent "no spaces" is not an agent name/, { ARCADE_TOKEN: 'agt_x' });
    // Nothing was trained.
    expect(() => readFileSync(path.join(out, 'metrics.jsonl'))).toThrow();
  });
});

for (const driver of testDrivers()) {
  const queued = driver.driver === 'postgres';
  describe(`${driver.driver}: train --submit${queued ? ' --known-seeds --queue' : ' (live)'} on a real server`, () => {
    const served = useServedSite(driver, gym.browser, { live: { pool: { maxBrowsers: 1 } } });
    let token: string;
    /** The ticket train --submit played (used by then). */
    let playedTicket = '';

    beforeAll(async () => {
      token = (await createToken(served.db, { name: 'trainer' })).token;
    });

    it('trains a tiny PPO, plays a ticket the server draws, and the run is stored ranked and verified with its curve and training', async () => {
      const out = mkdtempSync(path.join(os.tmpdir(), 'arcade-train-submit-'));
      const agent = `tiny-ppo-${driver.driver}`;
      const { stdout, stderr } = await cli(
        [...TINY, '--out', out, '--submit', '--server', served.url, '--agent', agent, ...(queued ? ['--known-seeds', '--queue'] : [])],
        { ARCADE_TOKEN: token },
      );
      const host = served.url.replace(/[.]/g, '\\.');
      if (queued) {
        expect(stderr).toMatch(new RegExp(`Ticket tkt_\\S+ from ${host}: ${SEEDS} seeds on 1 game`));
        expect(stderr).toMatch(new RegExp(`queue: ${SEEDS}/${SEEDS} episodes`));
      } else expect(stderr).toMatch(new RegExp(`Live ticket tkt_\\S+ from ${host}: ${SEEDS} episodes, played on the server's seeds as "${agent}"`));
      expect(stdout).toMatch(new RegExp(`Accepted: run [0-9a-f-]{36}, ${SEEDS} episodes verified by replay, ${SEEDS} ranked on snake`));
      const runId = /Accepted: run ([0-9a-f-]{36})/.exec(stdout)![1];

      const detail = await loadRun(served.db, runId);
      expect(detail?.agent).toEqual({ name: agent, kind: 'submitted' });
      expect(detail?.run).toMatchObject({ kind: 'training', ticketId: expect.stringMatching(/^tkt_/), unrankedReason: null, official: true });
      expect(detail?.episodes.map((e) => [e.ranked, e.ticketed, e.verification])).toEqual(Array(SEEDS).fill([true, true, 'verified']));
      playedTicket = detail!.run.ticketId!;
      const [ticketRow] = await served.db.select().from(tickets).where(eq(tickets.id, playedTicket));
      expect(ticketRow.mode).toBe(queued ? 'seeds' : 'live');
      if (queued) {
        // The episodes are the ones played here, against the ticket's seeds, at the official budget.
        const played = readFileSync(path.join(out, 'submission.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { seed: number; stepBudget: number; totals: { score: number } });
        const ticket = JSON.parse(readFileSync(path.join(out, 'submission.jsonl.ticket.json'), 'utf8')) as { id: string; games: { seeds: number[] }[] };
        expect(ticket.id).toBe(playedTicket);
        expect(played.map((r) => r.seed)).toEqual(ticket.games[0].seeds);
        expect(played.every((r) => r.stepBudget === getGame('snake').manifest.stepBudget)).toBe(true);
        expect(detail?.episodes.map((e) => e.score).sort()).toEqual(played.map((r) => r.totals.score).sort());
      } else {
        // Live: nothing was played here, so no record of it; the server played the ticket's seeds, shown now it is closed.
        expect(() => readFileSync(path.join(out, 'submission.jsonl'))).toThrow();
        expect(ticketRow.closedAt).not.toBeNull();
        expect(detail?.episodes.map((e) => e.seed).sort()).toEqual([...ticketRow.games[0].seeds].sort());
      }

      // What only the trainer knows, stored as sent: the curve from metrics.jsonl, config.json, the backend, the policy's sha256.
      const curve = learningCurveFrom(readFileSync(path.join(out, 'metrics.jsonl'), 'utf8'));
      expect(curve.length).toBeGreaterThanOrEqual(2);
      expect(curve.at(-1)?.step).toBe(512);
      expect(curve.every((p) => typeof p.policyLoss === 'number' && typeof p.entropy === 'number')).toBe(true);
      expect(detail?.run.learningCurve).toEqual(curve);
      expect(detail?.run.training).toEqual({
        algorithm: 'ppo',
        backend: 'cpu',
        totalTimesteps: 512,
        checkpointSha256: createHash('sha256')
          .update(readFileSync(path.join(out, 'policy.agckpt')))
          .digest('hex'),
        config: JSON.parse(readFileSync(path.join(out, 'config.json'), 'utf8')),
        // Snake's preset observes its keys through the game's own afterstates.
        gameSpecific: true,
      });
      expect(detail?.run.harness).toBe('arcade-gym train (ppo)');
      expect(detail?.run.gameSpecific).toBe(true);

      // The agent page's data: the curve of its latest training run; the leaderboard ranks it on snake.
      const page = await loadAgent(served.db, agent);
      expect(page?.training).toMatchObject({ runId, learningCurve: curve, training: { backend: 'cpu' } });
      expect(page?.games.map((g) => [g.id, g.cell.seeds])).toEqual([['snake', SEEDS]]);
      const board = await loadLeaderboard(served.db, { play: 'any', suite: 'all' });
      expect(board.rows.find((r) => r.agent.name === agent)?.cells.snake).toMatchObject({ seeds: SEEDS, ticketed: true, replayVerified: true });
    }, 600_000);

    it('a played ticket is not played again: eval --ticket reads it back from the server and refuses it', async () => {
      expect(playedTicket).toMatch(/^tkt_/);
      await expect(cli(['eval', '--ticket', playedTicket, '--agent', 'random', '--server', served.url], { ARCADE_TOKEN: token })).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringMatching(new RegExp(`ticket ${playedTicket} was already used by a submission`)),
      });
    });

    it('refuses a bad learning curve or training field with a 400 naming the field, storing nothing', async () => {
      const snake = getGame('snake');
      const body = (patch: Partial<RunSubmissionInput>): RunSubmissionInput => ({
        id: `bad-curve-${Math.random().toString(36).slice(2)}`,
        agent: 'bad-curve',
        kind: 'training',
        settings: { observation: ['vector'] },
        episodes: [fakeRecord(snake, 1, 0)],
        ...patch,
      });
      const training = { algorithm: 'ppo', backend: 'cpu', totalTimesteps: 10, checkpointSha256: 'a'.repeat(64), config: {} };
      const post = async (b: unknown) => {
        const res = await fetch(`${served.url}/api/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(b),
        });
        return { status: res.status, body: (await res.json()) as { error: { code: string; message: string; details?: { path?: string[] } } } };
      };
      const cases: [unknown, string][] = [
        [
          body({
            learningCurve: [
              { step: 10, meanReturn: 1 },
              { step: 5, meanReturn: 2 },
            ],
          }),
          'learningCurve.1.step',
        ],
        [body({ learningCurve: [{ step: 1, meanReturn: 'high' as unknown as number }] }), 'learningCurve.0.meanReturn'],
        [body({ learningCurve: [{ step: -1, meanReturn: 0 }] }), 'learningCurve.0.step'],
        [body({ learningCurve: [{ step: 1, meanReturn: 0, reward: 3 } as never] }), 'learningCurve.0'],
        [body({ learningCurve: Array.from({ length: MAX_LEARNING_CURVE_POINTS + 1 }, (_, i) => ({ step: i, meanReturn: 0 })) }), 'learningCurve'],
        [body({ settings: { observation: ['vector'], training: { ...training, checkpointSha256: 'nope' } } }), 'settings.training.checkpointSha256'],
        [
          body({ settings: { observation: ['vector'], training: { ...training, config: { blob: 'x'.repeat(MAX_TRAINING_CONFIG_BYTES) } } } }),
          'settings.training.config',
        ],
        [body({ settings: { observation: ['vector'], training: { ...training, backend: undefined as never } } }), 'settings.training.backend'],
        [body({ settings: { observation: ['vector'], training: { ...training, gameSpecific: 'yes' as never } } }), 'settings.training.gameSpecific'],
      ];
      const before = (await served.db.select({ id: runs.id }).from(runs)).length;
      for (const [b, field] of cases) {
        const answer = await post(b);
        expect({ field, status: answer.status, code: answer.body.error.code }).toEqual({ field, status: 400, code: 'INVALID_SUBMISSION' });
        expect(answer.body.error.message).toContain(`"${field}"`);
        expect(answer.body.error.details?.path?.join('.')).toBe(field);
      }
      expect((await served.db.select({ id: runs.id }).from(runs)).length).toBe(before);
      expect(await served.db.select().from(agents).where(eq(agents.name, 'bad-curve'))).toEqual([]);
    });
  });
}
