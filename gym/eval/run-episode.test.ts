import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedAgent } from '../agents/scripted-agent';
import { BrowserPool } from '../pool/browser-pool';
import { PooledEnv } from '../pool/pooled-env';
import { canonicalJson } from '../schema/records';
import { SessionManager } from '../sessions/session-manager';
import { useBrowser } from '../testing/harness';
import { runEpisode } from './run-episode';

const gym = useBrowser();
const pool = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 4, healthIntervalMs: 0 });
const sessions = new SessionManager({ pool: { maxBrowsers: 1, pagesPerBrowser: 2, healthIntervalMs: 0 } });
afterAll(async () => {
  await sessions.shutdown(0);
  await pool.close();
});

describe('runEpisode over any arcade Env', () => {
  it('plays the same episode, byte for byte, in an ArcadeEnv, a PooledEnv and an HTTP session', async () => {
    const options = { game: 'snake', observation: 'state' as const, maxSteps: 40 };
    const direct = await runEpisode(await gym.env(options), await createScriptedAgent('snake'), 21);
    const pooled = await runEpisode(await PooledEnv.open(pool, options), await createScriptedAgent('snake'), 21);
    const session = await sessions.create({ env: options });
    const viaSession = await runEpisode(session, await createScriptedAgent('snake'), 21);
    expect(direct.totals.length).toBeGreaterThan(5);
    expect(canonicalJson(pooled)).toBe(canonicalJson(direct));
    expect(canonicalJson(viaSession)).toBe(canonicalJson(direct));
  });
});
