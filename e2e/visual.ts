import type { Page } from '@playwright/test';

/**
 * Decodes a screenshot inside the browser and measures how much is on it: the number of
 * distinct colours (on a coarse grid) and the share of pixels that differ from the most
 * common colour. A blank or single-colour page scores near zero on both.
 */
export async function screenshotContent(page: Page, png: Buffer): Promise<{ colours: number; nonBackground: number }> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, img.width, img.height).data;
    const counts = new Map<number, number>();
    let n = 0;
    for (let y = 0; y < img.height; y += 4) {
      for (let x = 0; x < img.width; x += 4) {
        const i = 4 * (y * img.width + x);
        const key = ((data[i] >> 3) << 10) | ((data[i + 1] >> 3) << 5) | (data[i + 2] >> 3);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        n++;
      }
    }
    const top = Math.max(...counts.values());
    return { colours: counts.size, nonBackground: 1 - top / n };
  }, png.toString('base64'));
}
