import { afterAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser/launch';
import { makeEnv, type ArcadeEnv } from '../env/env';
import type { EnvOptionsInput } from '../env/options';

/**
 * One browser per test file, closed after the file's tests. Envs made through `env()` are
 * closed with it, so a failing test cannot leak pages.
 */
export function useBrowser() {
  let browser: Promise<Browser> | null = null;
  const envs: ArcadeEnv[] = [];
  afterAll(async () => {
    await Promise.all(envs.map((e) => e.close()));
    if (browser) await (await browser).close();
  });
  return {
    browser: () => (browser ??= launchBrowser()),
    async env(options: EnvOptionsInput): Promise<ArcadeEnv> {
      const e = makeEnv(options, await (browser ??= launchBrowser()));
      envs.push(e);
      return e;
    },
  };
}
