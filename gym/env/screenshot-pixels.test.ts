/**
 * Pixel observations of DOM games: shrunk screenshots. On a canvas game both ways exist, so the
 * screenshot path is checked against the in-page reader there; then a DOM game (mole-bop) gives
 * pixels of the asked size that show its moles.
 */
import { describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { decodePng, screenshotPixels } from './screenshot-pixels';
import { pixelSpread, useBrowser } from '../testing';

const gym = useBrowser();

/** A PNG of the given RGB rows, each row with its own filter type (to cover all five). */
function png(width: number, rows: number[][]): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows.length, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  // Filter 0 (none) for every row: decodePng must undo it, the other filters are checked on Chromium's own PNGs below.
  const raw = Buffer.concat(rows.map((r) => Buffer.from([0, ...r])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('pixels from screenshots', () => {
  it('decodes a PNG and averages the pixels each target pixel covers', () => {
    const image = png(2, [
      [255, 0, 0, 0, 0, 255],
      [0, 255, 0, 255, 255, 255],
    ]);
    expect(Array.from(decodePng(image).rgba)).toEqual([255, 0, 0, 255, 0, 0, 255, 255, 0, 255, 0, 255, 255, 255, 255, 255]);
    const one = screenshotPixels(image, { width: 1, height: 1, grayscale: false });
    expect(Array.from(one.data)).toEqual([Math.round(510 / 4), Math.round(510 / 4), Math.round(510 / 4)]);
    expect(screenshotPixels(image, { width: 2, height: 1, grayscale: true }).data[0]).toBe(Math.floor((255 * 299 + 255 * 587) / 2 / 1000 + 0.5));
  });

  it("on a canvas game, a shrunk screenshot is close to the in-page reader's pixels", async () => {
    const env = await gym.env({ game: 'snake', seed: 4, observation: ['pixels', 'screenshot'], screenshot: { type: 'png' } });
    const { observation } = await env.reset({ seed: 4 });
    const fromShot = screenshotPixels(observation.screenshot!, { width: 84, height: 84, grayscale: true });
    const inPage = observation.pixels!;
    let diff = 0;
    for (let i = 0; i < inPage.data.length; i++) diff += Math.abs(inPage.data[i] - fromShot.data[i]);
    expect(diff / inPage.data.length).toBeLessThan(12);
    expect(pixelSpread(fromShot).distinct).toBeGreaterThan(5);
  });

  it('a DOM game gives pixels of the asked size that change as its moles come and go', async () => {
    const env = await gym.env({
      game: 'mole-bop',
      seed: 2,
      observation: ['pixels', 'screenshot'],
      pixels: { width: 64, height: 48, grayscale: false },
      screenshot: { type: 'png' },
    });
    let { observation } = await env.reset({ seed: 2 });
    expect(observation.pixels).toMatchObject({ width: 64, height: 48, channels: 3 });
    expect(observation.pixels!.data).toHaveLength(64 * 48 * 3);
    const frames = new Set<string>();
    for (let t = 0; t < 12; t++) {
      frames.add(Buffer.from(observation.pixels!.data).toString('base64'));
      ({ observation } = await env.step({ type: 'wait' }));
    }
    expect(frames.size).toBeGreaterThan(1);
    // The frame Chromium draws for the screenshot observation, shrunk the same way.
    expect(decodePng(observation.screenshot!)).toMatchObject({ width: 360, height: 400 });
    expect(screenshotPixels(observation.screenshot!, { width: 64, height: 48, grayscale: false }).data).toEqual(observation.pixels!.data);
  });
});
