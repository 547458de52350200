/**
 * The one headless browser the server re-simulates submissions in: launched on first use,
 * relaunched if it dies, shared by every request (and every Next.js bundle, via globalThis).
 */
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../gym/browser/launch';
import type { EpisodeRecord } from '../gym/schema/records';
import { verifyEpisode, type VerificationResult } from '../gym/verify/resimulate';

const KEY = Symbol.for('arcade-gym.verifier-browser');
type Holder = { browser: Promise<Browser> | null };
const holder: Holder = ((globalThis as Record<symbol, unknown>)[KEY] as Holder | undefined) ?? ((globalThis as Record<symbol, unknown>)[KEY] = { browser: null });

export function sharedBrowser(): Promise<Browser> {
  if (!holder.browser) {
    const launching = launchBrowser();
    holder.browser = launching;
    launching.then(
      (b) => b.on('disconnected', () => { if (holder.browser === launching) holder.browser = null; }),
      () => { if (holder.browser === launching) holder.browser = null; },
    );
  }
  return holder.browser;
}

export async function verifyWithSharedBrowser(record: EpisodeRecord): Promise<VerificationResult> {
  return verifyEpisode(record, await sharedBrowser());
}

export async function closeSharedBrowser(): Promise<void> {
  const b = holder.browser;
  holder.browser = null;
  if (b) await (await b).close().catch(() => undefined);
}
