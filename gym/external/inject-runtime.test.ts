import { describe, expect, it } from 'vitest';
import { useBrowser } from '../testing/harness';
import { GAME_ORIGIN, serveFiles } from '../browser/serve-files';
import { PUBLIC_DIR } from '../paths';
import { injectRuntimeTags } from './inject-runtime';

const TAGS = '<script src="/runtime/arcade-runtime.js"></script><script src="/verifiers/g.js"></script>';

describe('injectRuntimeTags', () => {
  it('puts the runtime first in <head>, or after the doctype when there is none', () => {
    expect(injectRuntimeTags('<!DOCTYPE html><html><head lang="en"><script src="a.js"></script></head></html>', 'g')).toBe(
      `<!DOCTYPE html><html><head lang="en">${TAGS}<script src="a.js"></script></head></html>`,
    );
    expect(injectRuntimeTags('<!doctype html>\n<canvas></canvas><script src="a.js"></script>', 'g')).toBe(
      `<!doctype html>${TAGS}\n<canvas></canvas><script src="a.js"></script>`,
    );
    expect(injectRuntimeTags('<script>go()</script>', 'g')).toBe(`${TAGS}<script>go()</script>`);
    // <header> is not <head>.
    expect(injectRuntimeTags('<body><header>x</header></body>', 'g')).toBe(`${TAGS}<body><header>x</header></body>`);
  });
});

const gym = useBrowser();

describe('an external game page on the site', () => {
  it('runs in virtual time with ?arcade-seed= (the player), and in real time without', async () => {
    const browser = await gym.browser();
    const context = await browser.newContext({ viewport: { width: 360, height: 400 } });
    await serveFiles(context, [{ prefix: '/', dir: PUBLIC_DIR }]);
    const page = await context.newPage();
    await page.goto(`${GAME_ORIGIN}/games/mole-bop/index.html?arcade-seed=3&arcade-width=360&arcade-height=400`);
    const read = () => page.evaluate(() => (globalThis as unknown as { __arcadeVerifier: { read(w: Window): unknown } }).__arcadeVerifier.read(window));
    expect(await page.evaluate(() => typeof globalThis.__arcade)).toBe('object');
    expect(await read()).toMatchObject({ score: 0, lives: 3 });
    await page.evaluate(() => globalThis.__arcade.advance(20_000));
    // Nobody bops: 20 virtual seconds are plenty for three moles to get away.
    expect(await read()).toMatchObject({ lives: 0, gameOver: true });

    await page.goto(`${GAME_ORIGIN}/games/mole-bop/index.html`);
    expect(await page.evaluate(() => typeof globalThis.__arcade)).toBe('undefined');
    await context.close();
  });
});
