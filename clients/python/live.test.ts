/**
 * The Python client's live tickets (`ArcadeGymEnv.live`, arcade_gym/live.py) against the site's
 * routes on 127.0.0.1: two g2048 episodes played from Python with no seed seen, a seeded and a
 * second reset refused, and the run the server submitted accepted and ranked.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runs } from '../../drizzle/schema';
import { loadCatalog } from '../../gym/catalog';
import { useBrowser } from '../../gym/testing';
import { pgliteDriver, serveTestSite, testSite, type TestSite } from '../../leaderboard/test-support';
import type { Database } from '../../leaderboard/db';
import { syncGames } from '../../leaderboard/games';
import { createToken } from '../../leaderboard/tokens';
import { verifyAbortable } from '../../leaderboard/verifier-browser';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
const gym = useBrowser();
let browser: Browser;

describe('python: live tickets', () => {
  const driver = pgliteDriver();
  let database: Database;
  let site: TestSite;
  let http: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    browser = await gym.browser();
    database = await driver.open();
    await syncGames(database.db, loadCatalog());
    site = testSite(database.db, { verify: (r, signal) => verifyAbortable(r, browser, signal), live: { pool: { maxBrowsers: 1 } } });
    http = await serveTestSite(site);
  }, 120_000);

  afterAll(async () => {
    await http?.close();
    await site?.close();
    await database?.close();
  });

  it('plays a live ticket from Python and the server ranks the run it submitted', async () => {
    const { token } = await createToken(database.db, { name: 'python live' });
    const { stdout } = await run('/usr/bin/python3', [path.join(HERE, 'tests/check_live.py'), http.url, token], {
      env: { ...process.env, PYTHONPATH: HERE },
      timeout: 240_000,
    });
    const m = /^LIVE (\S+) \[(\d+), (\d+)\] \[(\d+), (\d+)\]$/m.exec(stdout);
    expect(m, stdout).not.toBeNull();
    const status = await site.settled(m![1]);
    expect(status.submission.status, JSON.stringify(status.error)).toBe('accepted');
    expect(status.result?.run.ranked).toBe(2);
    // The seeds shown at the close are the ones the server played, with the scores Python saw.
    expect(status.result?.episodes.map((e) => [e.seed, e.score])).toEqual([
      [Number(m![2]), Number(m![4])],
      [Number(m![3]), Number(m![5])],
    ]);
    // The claims Python sent before playing are the run's, as claimed.
    const [stored] = await database.db.select({ harness: runs.harness, model: runs.model }).from(runs).where(eq(runs.id, status.result!.run.id));
    expect(stored).toEqual({ harness: 'py-live harness', model: 'none' });
  }, 300_000);
});
