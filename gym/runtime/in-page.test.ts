import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../testing/harness';
import { RUNTIME_BUNDLE_PATH } from '../paths';

const gym = useBrowser();

/** A page with the runtime installed the way the gym installs it, and an inline game. */
async function pageWith(seed: number, gameScript: string) {
  const browser = await gym.browser();
  const context = await browser.newContext();
  await context.addInitScript({ content: `globalThis.__ARCADE_CONFIG__ = { seed: ${seed} };\n${readFileSync(RUNTIME_BUNDLE_PATH, 'utf8')}` });
  const page = await context.newPage();
  await page.setContent(`<html><body><canvas width="100" height="100"></canvas><script>${gameScript}</script></body></html>`);
  return { page, context };
}

type G = { x: number; frames: number; started: number; log: string[]; randoms: number[]; uuid: string; bytes: number[] };
const game = (page: import('playwright-core').Page) => page.evaluate(() => (window as unknown as { g: G }).g);
const advance = (page: import('playwright-core').Page, ms: number) => page.evaluate((m) => globalThis.__arcade.advance(m), ms);

// Moves x by 100 px per second using Date deltas inside requestAnimationFrame, like many hobby games.
const DATE_DELTA_GAME = `
  window.g = { x: 0, frames: 0, started: Date.now(), log: [], randoms: [Math.random(), Math.random()], uuid: crypto.randomUUID(), bytes: Array.from(crypto.getRandomValues(new Uint8Array(4))) };
  let last = new Date().getTime();
  function frame() {
    const now = new Date().getTime();
    g.x += 100 * (now - last) / 1000;
    last = now;
    g.frames++;
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
  setTimeout(() => g.log.push('timeout@' + performance.now()), 250);
  const iv = setInterval(() => { g.log.push('interval@' + performance.now()); if (g.log.length > 3) clearInterval(iv); }, 100);
`;

describe('the in-page runtime', () => {
  it('keeps a page paused while real time passes', async () => {
    const { page, context } = await pageWith(1, DATE_DELTA_GAME);
    const before = await game(page);
    await page.waitForTimeout(400);
    const after = await game(page);
    expect(after.x).toBe(0);
    expect(after.frames).toBe(before.frames);
    expect(after.log).toEqual([]);
    await context.close();
  });

  it('runs a Date-delta rAF game and timers exactly on virtual time', async () => {
    const { page, context } = await pageWith(1, DATE_DELTA_GAME);
    await advance(page, 1000);
    const g = await game(page);
    expect(g.frames).toBe(60);
    // Date deltas telescope: 1000 virtual ms of frames move the sprite exactly 100 px.
    expect(g.x).toBeCloseTo(100, 9);
    expect(g.started).toBe(Date.UTC(2024, 0, 1));
    expect(g.log).toEqual(['interval@100', 'interval@200', 'timeout@250', 'interval@300']);
    expect(await page.evaluate(() => performance.now())).toBe(1000);
    await context.close();
  });

  it('seeds Math.random and crypto from the episode seed', async () => {
    const a = await pageWith(7, DATE_DELTA_GAME);
    const b = await pageWith(7, DATE_DELTA_GAME);
    const c = await pageWith(8, DATE_DELTA_GAME);
    const [ga, gb, gc] = await Promise.all([game(a.page), game(b.page), game(c.page)]);
    expect(gb.randoms).toEqual(ga.randoms);
    expect(gb.uuid).toBe(ga.uuid);
    expect(gb.bytes).toEqual(ga.bytes);
    expect(gc.randoms).not.toEqual(ga.randoms);
    expect(ga.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await Promise.all([a.context.close(), b.context.close(), c.context.close()]);
  });

  it('gives events virtual time stamps', async () => {
    const { page, context } = await pageWith(1, `window.g = { log: [] }; window.addEventListener('keydown', (e) => g.log.push(e.timeStamp));`);
    await advance(page, 123);
    await page.evaluate(() => globalThis.__arcade.dispatch({ type: 'key', key: 'a' }));
    expect((await game(page)).log).toEqual([123]);
    await context.close();
  });
});
