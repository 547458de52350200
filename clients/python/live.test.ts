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
import { describe, expect, it } from 'vitest';
import { runs } from '../../drizzle/schema';
import { useBrowser } from '../../gym/testing';
import { pgliteDriver, useServedSite } from '../../leaderboard/test-support';
import { createToken } from '../../leaderboard/tokens';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
const gym = useBrowser();

describe('python: live tickets', () => {
  const served = useServedSite(pgliteDriver(), gym.browser, { live: { pool: { maxBrowsers: 1 } } });

  it('plays a live ticket from Python and the server ranks the run it submitted', async () => {
    const { token } = await createToken(served.db, { name: 'python live' });
    const { stdout } = await run('/usr/bin/python3', [path.join(HERE, 'tests/check_live.py'), served.url, token], {
      env: { ...process.env, PYTHONPATH: HERE },
      timeout: 240_000,
    });
    const m = /^LIVE (\S+) \[(\d+), (\d+)\] \[(\d+), (\d+)\]$/m.exec(stdout);
    expect(m, stdout).not.toBeNull();
    const status = await served.site.settled(m![1]);
    expect(status.submission.status, JSON.stringify(status.error)).toBe('accepted');
    expect(status.result?.run.ranked).toBe(2);
    // The seeds shown at the close are the ones the server played, with the scores Python saw.
    expect(status.result?.episodes.map((e) => [e.seed, e.score])).toEqual([
      [Number(m![2]), Number(m![4])],
      [Number(m![3]), Number(m![5])],
    ]);
    // The claims Python sent before playing are the run's, as claimed.
    const [stored] = await served.db.select({ harness: runs.harness, model: runs.model }).from(runs).where(eq(runs.id, status.result!.run.id));
    expect(stored).toEqual({ harness: 'py-live harness', model: 'none' });
  }, 300_000);
});
