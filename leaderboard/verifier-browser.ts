/**
 * Browsers the server re-simulates submissions in. `VerifierBrowsers` gives each verification job
 * a browser of its own, closed with the job when its budget is spent: a page stuck in a costly
 * replay keeps its browser's processes busy (its GPU process above all) even after its context is
 * closed, and must not slow the next job. `sharedBrowser()` is one browser for everything
 * (launched on first use, relaunched if it dies, shared by every Next.js bundle via globalThis).
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from '../gym/browser';
import type { EpisodeRecord } from '../gym/schema';
import { verifyEpisode, type VerificationResult, verifyEpisodes } from '../gym/eval';

const KEY = Symbol.for('arcade-gym.verifier-browser');
type Holder = { browser: Promise<Browser> | null };
const holder: Holder =
  ((globalThis as Record<symbol, unknown>)[KEY] as Holder | undefined) ?? ((globalThis as Record<symbol, unknown>)[KEY] = { browser: null });

export function sharedBrowser(): Promise<Browser> {
  if (!holder.browser) {
    const launching = launchBrowser();
    holder.browser = launching;
    launching.then(
      (b) =>
        b.on('disconnected', () => {
          if (holder.browser === launching) holder.browser = null;
        }),
      () => {
        if (holder.browser === launching) holder.browser = null;
      },
    );
  }
  return holder.browser;
}

/**
 * The browser as seen by one verification: contexts it opens are tracked, so that aborting the
 * verification closes them (the replay's next page call then fails at once instead of running on).
 */
function trackedBrowser(browser: Browser, onContext: (context: BrowserContext) => void): Browser {
  return new Proxy(browser, {
    get(target, prop) {
      if (prop === 'newContext') {
        return async (...args: Parameters<Browser['newContext']>) => {
          const context = await target.newContext(...args);
          onContext(context);
          return context;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Re-simulates one episode in `browser`; aborting `signal` stops it (its pages are closed). */
export async function verifyAbortable(record: EpisodeRecord, browser: Browser, signal?: AbortSignal): Promise<VerificationResult> {
  if (!signal) return verifyEpisode(record, browser);
  if (signal.aborted) return { ok: false, reason: 'verification was stopped (its budget was spent)' };
  const contexts = new Set<BrowserContext>();
  const close = (c: BrowserContext) => void c.close().catch(() => undefined);
  const stop = () => contexts.forEach(close);
  signal.addEventListener('abort', stop, { once: true });
  const onContext = (c: BrowserContext) => {
    contexts.add(c);
    // Opened just after the abort: closed as well.
    if (signal.aborted) close(c);
  };
  try {
    return await verifyEpisode(record, trackedBrowser(browser, onContext));
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** Re-simulates many episodes in `browser`, several per page (gym/verify/verify-many.ts); aborting `signal` stops them. */
export function verifyManyAbortable(records: readonly EpisodeRecord[], browser: Browser, signal?: AbortSignal): Promise<VerificationResult[]> {
  return verifyEpisodes(records, browser, { signal });
}

interface Waiting {
  record: EpisodeRecord;
  resolve: (r: VerificationResult) => void;
  reject: (e: unknown) => void;
}

/**
 * A one-episode verifier (verify-run.ts's `VerifyEpisode`) on batched replays: calls made in
 * the same turn under the same signal (a job's workers, each asking for its next episode) are
 * replayed together, several per page, and since they finish together their next calls join
 * again. Each answer is `verifyAbortable`'s for that episode.
 */
export function batchedVerifier(browser: Browser): (record: EpisodeRecord, signal?: AbortSignal) => Promise<VerificationResult> {
  const waiting = new Map<AbortSignal | null, Waiting[]>();
  return (record, signal) =>
    new Promise((resolve, reject) => {
      const key = signal ?? null;
      let queue = waiting.get(key);
      if (!queue) {
        const batch: Waiting[] = [];
        queue = batch;
        waiting.set(key, batch);
        setImmediate(() => {
          waiting.delete(key);
          verifyManyAbortable(
            batch.map((w) => w.record),
            browser,
            signal,
          ).then(
            (results) => batch.forEach((w, i) => w.resolve(results[i])),
            (e: unknown) => batch.forEach((w) => w.reject(e)),
          );
        });
      }
      queue.push({ record, resolve, reject });
    });
}

export async function verifyWithSharedBrowser(record: EpisodeRecord, signal?: AbortSignal): Promise<VerificationResult> {
  return verifyAbortable(record, await sharedBrowser(), signal);
}

export async function closeSharedBrowser(): Promise<void> {
  const b = holder.browser;
  holder.browser = null;
  if (b) await (await b).close().catch(() => undefined);
}

/** Browsers kept idle for the next jobs (more are launched while more jobs run at once). */
const MAX_IDLE_BROWSERS = 2;

export class VerifierBrowsers {
  private readonly idle: Browser[] = [];
  private closed = false;

  constructor(private readonly launch: () => Promise<Browser> = launchBrowser) {}

  /**
   * Runs `fn` with a browser no other job uses. When `signal` aborts, the browser is closed at
   * once (its pages and processes with it, so `fn`'s replay fails now rather than later); else it
   * is kept for the next job.
   */
  async run<T>(signal: AbortSignal, fn: (browser: Browser) => Promise<T>): Promise<T> {
    let browser = this.idle.pop();
    while (browser && !browser.isConnected()) browser = this.idle.pop();
    browser ??= await this.launch();
    const b = browser;
    const kill = () => void b.close().catch(() => undefined);
    signal.addEventListener('abort', kill, { once: true });
    if (signal.aborted) kill();
    try {
      return await fn(b);
    } finally {
      signal.removeEventListener('abort', kill);
      if (!signal.aborted && !this.closed && b.isConnected() && this.idle.length < MAX_IDLE_BROWSERS) this.idle.push(b);
      else kill();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((b) => b.close().catch(() => undefined)));
  }
}

const POOL_KEY = Symbol.for('arcade-gym.verifier-browsers');

/** The web server's VerifierBrowsers (one per process, whichever Next.js bundle asks). */
export function verifierBrowsers(): VerifierBrowsers {
  const g = globalThis as Record<symbol, VerifierBrowsers | undefined>;
  return (g[POOL_KEY] ??= new VerifierBrowsers());
}
