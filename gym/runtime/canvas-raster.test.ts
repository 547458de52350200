import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from '../testing/harness';
import { RUNTIME_BUNDLE_PATH } from '../paths';

const gym = useBrowser();

/**
 * Counts the pixel reads of every 2D canvas by its id. Installed before the runtime, so the
 * runtime's captured getImageData is this one and the test sees its reads.
 */
const COUNT_READS = `
  window.__reads = {};
  const real = CanvasRenderingContext2D.prototype.getImageData;
  CanvasRenderingContext2D.prototype.getImageData = function (...a) {
    const id = this.canvas.id || 'other';
    window.__reads[id] = (window.__reads[id] || 0) + 1;
    return real.apply(this, a);
  };
`;

// Draws every frame on a canvas in the document and on one kept out of it, and asks for a WebGL
// context on a third canvas only at its fifth frame (the runtime must not have given it a 2D one).
const GAME = `
  window.g = { frames: 0, gl: null };
  const onScreen = document.getElementById('screen').getContext('2d');
  const buffer = document.createElement('canvas');
  buffer.id = 'buffer';
  buffer.width = buffer.height = 50;
  const off = buffer.getContext('2d');
  function frame() {
    g.frames++;
    off.fillStyle = 'hsl(' + (g.frames * 37) % 360 + ', 80%, 50%)';
    off.fillRect(0, 0, 50, 50);
    onScreen.fillStyle = '#123';
    onScreen.fillRect(0, 0, 100, 100);
    onScreen.strokeStyle = '#fd0';
    for (let i = 0; i < 20; i++) {
      onScreen.beginPath();
      onScreen.arc(50, 50, (g.frames * 3 + i * 5) % 48 + 1, 0, Math.PI * 2);
      onScreen.stroke();
    }
    onScreen.drawImage(buffer, g.frames % 50, 25);
    if (g.frames === 5) g.gl = !!document.getElementById('gl').getContext('webgl');
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
  __arcadeRegisterVerifier({
    gameId: 'raster-fixture',
    read: (w) => ({ score: w.g.frames, gameOver: false, gl: w.g.gl }),
    features: { names: [], encode: () => [] },
  });
`;

async function pageWith(seed: number, raster = true) {
  const browser = await gym.browser();
  const context = await browser.newContext();
  await context.addInitScript({
    content: `${COUNT_READS}\nglobalThis.__ARCADE_CONFIG__ = { seed: ${seed}, rasterEachStep: ${raster} };\n${readFileSync(RUNTIME_BUNDLE_PATH, 'utf8')}`,
  });
  const page = await context.newPage();
  await page.setContent(
    `<html><body><canvas id="screen" width="100" height="100"></canvas><canvas id="gl" width="10" height="10"></canvas><script>${GAME}</script></body></html>`,
  );
  return { page, context };
}

const OBS = { state: true, vector: false, pixels: null, frameHash: false };
const reads = (page: Page) => page.evaluate(() => ({ ...(window as unknown as { __reads: Record<string, number> }).__reads }));
const stepsInOneCall = (page: Page, n: number) =>
  page.evaluate(([n, obs]) => Array.from({ length: n }, () => globalThis.__arcade.step({ action: null, ms: 50, obs })), [n, OBS] as const);
const stepInItsOwnCall = (page: Page) => page.evaluate((obs) => globalThis.__arcade.step({ action: null, ms: 50, obs }), OBS);

describe('canvas rasterising between steps run in one call', () => {
  it('reads a pixel of each 2D canvas in the document from the second step of a call on, and nothing in one-step calls', async () => {
    const { page, context } = await pageWith(1);
    expect(await reads(page)).toEqual({});

    await stepsInOneCall(page, 5);
    // Before steps 2–5: the on-screen canvas only (the buffer is out of the document, the WebGL canvas has no 2D context).
    expect(await reads(page)).toEqual({ screen: 4 });

    for (let i = 0; i < 3; i++) await stepInItsOwnCall(page);
    expect(await reads(page)).toEqual({ screen: 4 });

    await stepsInOneCall(page, 2);
    expect(await reads(page)).toEqual({ screen: 5 });
    await context.close();
  });

  it('reads nothing where the config leaves it off (visible pages, whose canvases a GPU may rasterise)', async () => {
    const { page, context } = await pageWith(1, false);
    await stepsInOneCall(page, 5);
    expect(await reads(page)).toEqual({});
    await context.close();
  });

  it('changes nothing the game sees or draws: the same states and final frame, one call or one call per step', async () => {
    const a = await pageWith(3);
    const b = await pageWith(3);
    const together = await stepsInOneCall(a.page, 12);
    const apart = [];
    for (let i = 0; i < 12; i++) apart.push(await stepInItsOwnCall(b.page));
    expect(together.map((r) => r.state)).toEqual(apart.map((r) => r.state));
    // The WebGL context asked for at frame 5 was given: the runtime made no 2D context of its own.
    expect(together.at(-1)!.state.gl).toBe(true);
    const hashes = await Promise.all([a.page, b.page].map((p) => p.evaluate(() => globalThis.__arcade.frameHash())));
    expect(hashes[0]).toBe(hashes[1]);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
