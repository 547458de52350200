import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrowser } from '../testing/harness';
import { openPageChannel } from './cdp-channel';
import { GAME_ORIGIN } from './serve-files';
import { serveFilesOverChannel } from './serve-files-cdp';

const gym = useBrowser();
const dir = mkdtempSync(path.join(os.tmpdir(), 'serve-cdp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serveFilesOverChannel', () => {
  // The raw channel, and the Playwright CDPSession a remote browser's pages get.
  it.each(['raw', 'playwright'] as const)(
    "serves the mounts and documents, and a frame's later loads ask only for its document (%s channel)",
    async (kind) => {
      writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script src="app.js"></script>');
      writeFileSync(path.join(dir, 'app.js'), 'window.loaded = (window.loaded || 0) + 1;');
      const context = await (await gym.browser()).newContext();
      try {
        const page = await context.newPage();
        const channel = await openPageChannel(page, kind);
        expect(channel.kind).toBe(kind);
        const asked: string[] = [];
        channel.on('Fetch.requestPaused', (p) => asked.push(new URL((p as { request: { url: string } }).request.url).pathname));
        await serveFilesOverChannel(channel, [{ prefix: '/game/', dir }], { '/host.html': '<!doctype html><title>host</title>' });
        await page.goto(`${GAME_ORIGIN}/host.html`);
        expect(await page.title()).toBe('host');
        const load = () =>
          page.evaluate(
            () =>
              new Promise<number>((resolve) => {
                const f = document.createElement('iframe');
                f.addEventListener('load', () => resolve((f.contentWindow as Window & { loaded?: number }).loaded ?? 0), { once: true });
                f.src = '/game/index.html';
                document.body.appendChild(f);
              }),
          );
        expect(await load()).toBe(1);
        expect(await load()).toBe(1);
        // The script came from the page's cache the second time; the document was asked for again.
        expect(asked).toEqual(['/host.html', '/game/index.html', '/game/app.js', '/game/index.html']);
        const statuses = await page.evaluate(async () => [(await fetch('/game/missing.js')).status, (await fetch('/elsewhere')).status]);
        expect(statuses).toEqual([404, 404]);
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
