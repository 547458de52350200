/**
 * Pixel observations read inside the page: the game canvas is drawn into a small scratch
 * canvas and returned as base64 (returning arrays of numbers through the driver is far slower).
 */

export interface PixelRequest {
  width: number;
  height: number;
  grayscale: boolean;
}

let scratch: HTMLCanvasElement | null = null;
let scratchCtx: CanvasRenderingContext2D | null = null;

function scratchContext(doc: Document, width: number, height: number): CanvasRenderingContext2D {
  if (!scratch) {
    // Never attached to the document: drawing into it costs no compositing.
    scratch = doc.createElement('canvas');
    scratchCtx = scratch.getContext('2d', { willReadFrequently: true });
  }
  if (scratch.width !== width || scratch.height !== height) {
    scratch.width = width;
    scratch.height = height;
  }
  return scratchCtx!;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) s += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + CHUNK)));
  return btoa(s);
}

export function readPixels(doc: Document, source: HTMLCanvasElement, req: PixelRequest): string {
  const ctx = scratchContext(doc, req.width, req.height);
  ctx.imageSmoothingEnabled = true;
  ctx.clearRect(0, 0, req.width, req.height);
  ctx.drawImage(source, 0, 0, req.width, req.height);
  const rgba = ctx.getImageData(0, 0, req.width, req.height).data;
  const n = req.width * req.height;
  const out = new Uint8Array(req.grayscale ? n : n * 3);
  if (req.grayscale) {
    for (let i = 0; i < n; i++) out[i] = (rgba[4 * i] * 299 + rgba[4 * i + 1] * 587 + rgba[4 * i + 2] * 114 + 500) / 1000;
  } else {
    for (let i = 0; i < n; i++) {
      out[3 * i] = rgba[4 * i];
      out[3 * i + 1] = rgba[4 * i + 1];
      out[3 * i + 2] = rgba[4 * i + 2];
    }
  }
  return bytesToBase64(out);
}

/** 53-bit string hash (cyrb53) of 32-bit words: fast enough to run on every final frame. */
export function hashWords(words: Uint32Array | Int32Array, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    h1 = Math.imul(h1 ^ w, 2654435761);
    h2 = Math.imul(h2 ^ w, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

/** Hash of every pixel of the canvas at its full backing size. */
export function frameHash(doc: Document, source: HTMLCanvasElement): string {
  const ctx = scratchContext(doc, source.width, source.height);
  ctx.clearRect(0, 0, source.width, source.height);
  ctx.drawImage(source, 0, 0);
  const data = ctx.getImageData(0, 0, source.width, source.height).data;
  return hashWords(new Uint32Array(data.buffer, data.byteOffset, data.byteLength >>> 2));
}

export function textHash(text: string): string {
  const words = new Uint32Array(text.length);
  for (let i = 0; i < text.length; i++) words[i] = text.charCodeAt(i);
  return hashWords(words);
}
