import type { Browser, Page } from 'playwright-core';
import type { PageChannel } from '../browser/cdp-channel';

export interface ScreenshotOptions {
  type: 'png' | 'jpeg';
  quality?: number;
}

const BEGIN_FRAME_ATTEMPTS = 20;

/** Browsers known to answer beginFrame (true) or to refuse it (false). */
const frameless = new WeakMap<Browser, boolean>();

/**
 * The page's viewport as an image. A frameless browser (launched with FRAMELESS_ARGS) draws
 * only on request, so page.screenshot would wait for a frame that never comes: ask for one
 * frame with the screenshot attached. Any other browser refuses that request once, and gets
 * page.screenshot from then on.
 */
export async function captureScreenshot(page: Page, cdp: Pick<PageChannel, 'send'> | null, options: ScreenshotOptions): Promise<Buffer> {
  const quality = options.type === 'jpeg' ? (options.quality ?? 80) : undefined;
  const browser = page.context().browser();
  if (cdp && (!browser || frameless.get(browser) !== false)) {
    try {
      // A page whose renderer has not produced its first frame yet answers without a picture.
      for (let attempt = 0; attempt < BEGIN_FRAME_ATTEMPTS; attempt++) {
        const r = await cdp.send<{ screenshotData?: string }>('HeadlessExperimental.beginFrame', { screenshot: { format: options.type, quality } });
        if (browser) frameless.set(browser, true);
        if (r.screenshotData) return Buffer.from(r.screenshotData, 'base64');
        await new Promise((resolve) => setTimeout(resolve, 10 * (attempt + 1)));
      }
    } catch (e) {
      if (!/BeginFrameControl|not found|wasn't found/i.test(String(e))) throw e;
      if (browser) frameless.set(browser, false);
      return page.screenshot({ type: options.type, quality });
    }
    throw new Error(`No screenshot: the page drew no frame in ${BEGIN_FRAME_ATTEMPTS} tries`);
  }
  return page.screenshot({ type: options.type, quality });
}
