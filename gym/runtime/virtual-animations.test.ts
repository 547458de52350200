import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from '../testing/harness';
import { RUNTIME_BUNDLE_PATH } from '../paths';

const gym = useBrowser();

/** A page in virtual time (as the gym sets it up) with inline CSS and a script. */
async function pageWith(css: string, body: string, script: string) {
  const browser = await gym.browser();
  const context = await browser.newContext();
  await context.addInitScript({ content: `globalThis.__ARCADE_CONFIG__ = { seed: 1 };\n${readFileSync(RUNTIME_BUNDLE_PATH, 'utf8')}` });
  // Navigate rather than setContent: document.open() (setContent) erases the runtime's window listeners.
  const html = `<html><head><style>${css}</style></head><body>${body}<script>${script}</script></body></html>`;
  await context.route('http://anim.localhost/', (route) => route.fulfill({ body: html, contentType: 'text/html' }));
  const page = await context.newPage();
  await page.goto('http://anim.localhost/');
  return { page, context };
}

const advance = (page: Page, ms: number) => page.evaluate((m) => globalThis.__arcade.advance(m), ms);
const log = (page: Page) => page.evaluate(() => (window as unknown as { log: string[] }).log);
/** translateX of #box in px, from its computed transform matrix. */
const boxX = (page: Page) =>
  page.evaluate(() => {
    const m = getComputedStyle(document.getElementById('box')!).transform;
    return m === 'none' ? 0 : Number(m.slice(7, -1).split(',')[4]);
  });

// Logs every CSS animation event with the virtual time it arrived at; `trusted` would mean
// the browser's own real-time event reached the page.
const LOGGER = `
  window.log = [];
  for (const t of ['transitionrun','transitionstart','transitionend','transitioncancel','animationstart','animationiteration','animationend','animationcancel'])
    document.addEventListener(t, (e) => log.push(e.type + '@' + Math.round(performance.now()) + (e.isTrusted ? ' trusted' : '') + (e.elapsedTime ? ' e=' + Math.round(e.elapsedTime * 1000) / 1000 : '')));
`;
const BOX = `<div id="box" style="width:20px;height:20px;background:red"></div>`;

describe('CSS transitions and animations in virtual time', () => {
  it('runs a transition on virtual time: progress, events and end at exact virtual times, frozen while real time passes', async () => {
    const { page, context } = await pageWith(
      '#box { transition: transform 500ms linear; } #box.moved { transform: translateX(100px); }',
      BOX,
      `${LOGGER} setTimeout(() => document.getElementById('box').classList.add('moved'), 100);`,
    );
    await advance(page, 100);
    expect(await log(page)).toEqual(['transitionrun@100', 'transitionstart@100']);
    await advance(page, 250);
    expect(await boxX(page)).toBeCloseTo(50, 3);
    // Real time must not move it: a second of wall clock later it is where it was.
    await page.waitForTimeout(1000);
    expect(await boxX(page)).toBeCloseTo(50, 3);
    expect(await log(page)).toEqual(['transitionrun@100', 'transitionstart@100']);
    await advance(page, 249);
    expect(await log(page)).toHaveLength(2);
    await advance(page, 1);
    expect(await log(page)).toEqual(['transitionrun@100', 'transitionstart@100', 'transitionend@600 e=0.5']);
    expect(await boxX(page)).toBe(100);
    await page.waitForTimeout(100);
    // The browser's own transitionend (sent on the real clock) never reached the page.
    expect(await log(page)).toHaveLength(3);
    await context.close();
  });

  it('runs keyframe animations with delay and iterations, and holds them while animation-play-state is paused', async () => {
    const { page, context } = await pageWith(
      '@keyframes slide { from { transform: translateX(0px); } to { transform: translateX(200px); } } #box.go { animation: slide 200ms linear 50ms 3; } #box.hold { animation-play-state: paused; }',
      BOX,
      `${LOGGER} setTimeout(() => document.getElementById('box').classList.add('go'), 0);`,
    );
    await advance(page, 150);
    // Adopted at the first frame (16.67 ms); the 50 ms delay ends at 66.67 ms.
    expect(await log(page)).toEqual(['animationstart@67']);
    expect(await boxX(page)).toBeCloseTo(((150 - 1000 / 60 - 50) / 200) * 200, 3);
    await page.evaluate(() => document.getElementById('box')!.classList.add('hold'));
    await advance(page, 1000);
    expect(await boxX(page)).toBeCloseTo(((150 - 1000 / 60 - 50) / 200) * 200, 3);
    await page.evaluate(() => document.getElementById('box')!.classList.remove('hold'));
    await advance(page, 1000);
    expect(await log(page)).toEqual(['animationstart@67', 'animationiteration@1267 e=0.2', 'animationiteration@1467 e=0.4', 'animationend@1667 e=0.6']);
    await context.close();
  });

  it('sends transitioncancel when the page interrupts a transition', async () => {
    const { page, context } = await pageWith(
      '#box { transition: transform 400ms linear; } #box.moved { transform: translateX(100px); }',
      BOX,
      `${LOGGER} const b = document.getElementById('box');
       setTimeout(() => b.classList.add('moved'), 0);
       setTimeout(() => { b.style.transition = 'none'; b.classList.remove('moved'); }, 200);`,
    );
    await advance(page, 1000);
    expect(await log(page)).toEqual(['transitionrun@17', 'transitionstart@17', 'transitioncancel@200 e=0.183']);
    expect(await boxX(page)).toBe(0);
    await context.close();
  });

  it('drives Web Animations (element.animate) on virtual time and sends their finish and cancel events at the virtual frame', async () => {
    const { page, context } = await pageWith(
      '',
      BOX,
      `window.log = []; const b = document.getElementById('box');
       setTimeout(() => {
         const a = b.animate([{ transform: 'translateX(0px)' }, { transform: 'translateX(90px)' }], { duration: 300, fill: 'forwards' });
         a.onfinish = (e) => log.push('onfinish@' + performance.now() + (e.isTrusted ? ' trusted' : ''));
         a.addEventListener('finish', (e) => log.push('finish@' + performance.now() + (e.isTrusted ? ' trusted' : '')));
         const c = b.animate([{ opacity: 1 }, { opacity: 0 }], 1000);
         c.addEventListener('cancel', (e) => log.push('cancel@' + Math.round(performance.now()) + (e.isTrusted ? ' trusted' : '')));
         setTimeout(() => c.cancel(), 150);
       }, 100);`,
    );
    await advance(page, 200);
    expect(await boxX(page)).toBeCloseTo(30, 3);
    await page.waitForTimeout(500);
    expect(await boxX(page)).toBeCloseTo(30, 3);
    await advance(page, 199);
    expect(await log(page)).toEqual(['cancel@250']);
    await advance(page, 1);
    expect(await log(page)).toEqual(['cancel@250', 'onfinish@400', 'finish@400']);
    expect(await boxX(page)).toBe(90);
    await page.waitForTimeout(100);
    expect(await log(page)).toHaveLength(3);
    await context.close();
  });

  it('gives the same frames and events however fast the wall clock runs', async () => {
    const css =
      '#box { transition: transform 300ms ease-in-out; } #box.moved { transform: translateX(100px); } @keyframes p { to { opacity: 0.2; } } #box.moved { animation: p 170ms 2 alternate; }';
    const script = `${LOGGER} const b = document.getElementById('box'); window.xs = [];
      b.addEventListener('transitionend', () => b.classList.toggle('moved'));
      setTimeout(() => b.classList.add('moved'), 30);
      requestAnimationFrame(function f() { xs.push(getComputedStyle(b).transform + '|' + getComputedStyle(b).opacity); requestAnimationFrame(f); });`;
    const run = async (pauseMs: number) => {
      const { page, context } = await pageWith(css, BOX, script);
      for (let i = 0; i < 8; i++) {
        await advance(page, 100);
        if (pauseMs) await page.waitForTimeout(pauseMs);
      }
      const out = await page.evaluate(() => ({ log: (window as unknown as { log: string[] }).log, xs: (window as unknown as { xs: string[] }).xs }));
      await context.close();
      return out;
    };
    const fast = await run(0);
    const slow = await run(120);
    expect(slow).toEqual(fast);
    // The end handler toggled the class back, so a second transition ran: the loop is real.
    expect(fast.log.filter((l) => l.startsWith('transitionend')).length).toBeGreaterThanOrEqual(2);
    expect(new Set(fast.xs).size).toBeGreaterThan(10);
  });
});
