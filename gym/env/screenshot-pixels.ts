import { inflateSync } from 'node:zlib';
import type { PixelObservation } from './observation';

/**
 * Pixel observations of a DOM game, whose frame is markup the page cannot draw into a canvas: the
 * screenshot (PNG) is decoded here and shrunk to the requested size, averaging the source pixels
 * each target pixel covers, with the grayscale weights the in-page reader uses (observe-pixels.ts).
 */

interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, row-major. */
  rgba: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Decodes an 8-bit, non-interlaced RGB, RGBA or grayscale PNG (what Chromium's screenshots are). */
export function decodePng(png: Uint8Array): DecodedPng {
  if (SIGNATURE.some((b, i) => png[i] !== b)) throw new Error('not a PNG image');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(png[at + 4], png[at + 5], png[at + 6], png[at + 7]);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colour, , , interlace] = data.subarray(8, 13);
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colour] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0)
        throw new Error(`unsupported PNG: bit depth ${depth}, colour type ${colour}, interlace ${interlace}`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!width || !height) throw new Error('PNG without a header');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('PNG data is shorter than its size says');
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : null;
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[i - channels] : 0;
      const b = up ? up[i] : 0;
      const c = up && i >= channels ? up[i - channels] : 0;
      let v = line[i];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) v += paeth(a, b, c);
      else if (filter !== 0) throw new Error(`PNG row ${y} has unknown filter ${filter}`);
      out[i] = v & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const s = p * channels;
    const gray = channels <= 2;
    rgba[4 * p] = pixels[s];
    rgba[4 * p + 1] = gray ? pixels[s] : pixels[s + 1];
    rgba[4 * p + 2] = gray ? pixels[s] : pixels[s + 2];
    rgba[4 * p + 3] = channels === 4 ? pixels[s + 3] : channels === 2 ? pixels[s + 1] : 255;
  }
  return { width, height, rgba };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** A screenshot as a pixel observation of `width`×`height`, grayscale or RGB. */
export function screenshotPixels(png: Uint8Array, req: { width: number; height: number; grayscale: boolean }): PixelObservation {
  const src = decodePng(png);
  const channels = req.grayscale ? 1 : 3;
  const data = new Uint8Array(req.width * req.height * channels);
  for (let ty = 0; ty < req.height; ty++) {
    const y0 = Math.floor((ty * src.height) / req.height);
    const y1 = Math.max(y0 + 1, Math.floor(((ty + 1) * src.height) / req.height));
    for (let tx = 0; tx < req.width; tx++) {
      const x0 = Math.floor((tx * src.width) / req.width);
      const x1 = Math.max(x0 + 1, Math.floor(((tx + 1) * src.width) / req.width));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const s = 4 * (y * src.width + x);
          r += src.rgba[s];
          g += src.rgba[s + 1];
          b += src.rgba[s + 2];
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const t = ty * req.width + tx;
      if (req.grayscale) data[t] = Math.floor((r * 299 + g * 587 + b * 114) / n / 1000 + 0.5);
      else {
        data[3 * t] = Math.round(r / n);
        data[3 * t + 1] = Math.round(g / n);
        data[3 * t + 2] = Math.round(b / n);
      }
    }
  }
  return { width: req.width, height: req.height, channels, data };
}
