import { chromium, type BrowserServer } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../browser/launch';
import { findChromium } from '../browser/find-chromium';
import { makeVectorEnv } from '../vector';

let server: BrowserServer | null = null;
afterAll(async () => {
  await server?.close();
});

describe('remote browsers', () => {
  it('runs episodes in a browser served by another process (Playwright browser server)', async () => {
    server = await chromium.launchServer({
      executablePath: findChromium({ headless: true }),
      args: [...CHROMIUM_ARGS, '--no-sandbox'],
      host: '127.0.0.1',
      port: 0,
    });
    const venv = makeVectorEnv({
      game: 'snake',
      numEnvs: 2,
      seed: 5,
      observation: 'state',
      maxSteps: 5,
      poolOptions: { remoteEndpoints: [server.wsEndpoint()], maxBrowsers: 1 },
    });
    try {
      const r = await venv.reset();
      expect(r.observations).toHaveLength(2);
      for (let i = 0; i < 5; i++) {
        const s = await venv.step([4, 4]);
        expect(s.rewards).toHaveLength(2);
      }
      const stats = venv.pool.stats();
      expect(stats.launches).toBe(1);
      // Connected, not launched here: the pool knows no local process for it.
      expect(stats.browsers.map((b) => b.pid)).toEqual([null]);
    } finally {
      await venv.close();
    }
  });
});
