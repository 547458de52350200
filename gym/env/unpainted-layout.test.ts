import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../catalog';
import { useBrowser } from '../testing/harness';

const gym = useBrowser();

/**
 * Every element's box, the viewport and the document's scroll size. A string function: tsx
 * would wrap named inner functions in a __name() the page lacks.
 */
const LAYOUT = `(() => {
  const d = document.documentElement;
  const boxes = Array.from(document.querySelectorAll('html, body, body *')).map((el) => {
    const r = el.getBoundingClientRect();
    return el.tagName + ' ' + [r.x, r.y, r.width, r.height, el.clientWidth, el.clientHeight].join(',');
  });
  return { viewport: [innerWidth, innerHeight, d.clientWidth, d.clientHeight, d.scrollWidth, d.scrollHeight], boxes };
})()`;
const ROOT_VISIBILITY = `getComputedStyle(document.documentElement).visibility`;

// Games measure their canvas (pointer mapping, resizing): an unwatched page must lay out
// exactly like a watched one, or the same actions could play differently in a visible browser.
describe('unpainted pages', () => {
  it.each(loadCatalog().games.map((g) => [g.manifest.id] as const))('%s lays out exactly as when painted', async (id) => {
    const env = await gym.env({ game: id, observation: 'state', maxSteps: 50 });
    await env.reset({ seed: 3 });
    for (let i = 0; i < 4; i++) if ((await env.step(i % env.manifest.preset.length)).terminated) break;
    const page = env.currentPage!;
    expect(await page.evaluate(ROOT_VISIBILITY)).toBe('hidden');
    const unpainted = await page.evaluate(LAYOUT);
    await env.setPaint(true);
    expect(await page.evaluate(ROOT_VISIBILITY)).toBe('visible');
    expect(await page.evaluate(LAYOUT)).toEqual(unpainted);
    await env.close();
  });
});
