import type { Browser, Page } from 'playwright-core';
import { GAME_ORIGIN, serveFiles } from '../browser/serve-files';
import { PUBLIC_DIR } from '../paths';

/** A bare page on the games' origin that loads the trainer bundle, for tests and the benchmark. */
export const TRAINER_TEST_PATH = '/__arcade/trainer-test.html';
const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>trainer test</title>
<script src="/trainer/arcade-trainer.js"></script></head><body><div id="frames"></div></body></html>`;

/** Chromium flags for WebGPU in a page (SwiftShader when VK_ICD_FILENAMES points at it). */
export const WEBGPU_ARGS = ['--enable-unsafe-webgpu'];

/**
 * Opens the test page in a fresh context. `fixedNow`: the page's own `Date` (not the game
 * frames', which run on the virtual clock) stands still there, so a checkpoint's `createdAt`
 * matches a Node run's under the same fixed time.
 */
export async function openTrainerPage(browser: Browser, opts: { fixedNow?: number } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  await serveFiles(context, [{ prefix: '/', dir: PUBLIC_DIR }], { [TRAINER_TEST_PATH]: HTML });
  // Under tsx (esbuild's keepNames) functions handed to page.evaluate call a __name helper the page lacks.
  await context.addInitScript('globalThis.__name = globalThis.__name || ((f) => f);');
  const page = await context.newPage();
  if (opts.fixedNow !== undefined) {
    await page.addInitScript((now) => {
      if (window !== window.top) return;
      const RealDate = Date;
      class FixedDate extends RealDate {
        constructor(...args: unknown[]) {
          if (args.length === 0) super(now);
          else super(...(args as [string]));
        }
        static override now() {
          return now;
        }
      }
      (window as unknown as { Date: DateConstructor }).Date = FixedDate as DateConstructor;
    }, opts.fixedNow);
  }
  await page.goto(`${GAME_ORIGIN}${TRAINER_TEST_PATH}`);
  await page.waitForFunction(() => 'ArcadeTrainer' in window);
  return page;
}
