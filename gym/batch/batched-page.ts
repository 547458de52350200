import type { Browser } from 'playwright-core';
import type { CatalogEntry } from '../catalog-schema';
import type { EnvOptions } from '../env/options';
import { evaluateJson, openPageChannel, PageScriptError, type PageChannel } from '../browser/cdp-channel';
import { navigateOwnPage, openOwnPage } from '../browser/own-page';
import { GAME_ORIGIN } from '../browser/serve-files';
import { serveFilesOverChannel } from '../browser/serve-files-cdp';
import { entryUrl } from '../external/entry-url';
import { ArcadeGymError } from '../errors';
import { PUBLIC_DIR } from '../paths';
import type { PageStepRequest, PageStepResult } from '../runtime/protocol';
import { BATCH_HOST_HTML, BATCH_HOST_PATH, BATCH_HOST_URL, batchInitScript } from './host-page';

/** One instance's answer within a batched call: its result, or the exception its own document threw. */
export type InstanceResult<T> = { ok: T; error?: undefined } | { ok?: undefined; error: string };

export interface BatchedPageOptions {
  deviceScaleFactor: number;
  /** A call that takes longer than this (wall clock) is treated as a hung page. */
  stepTimeoutMs: number;
  /** Opening the page, or loading instances, that takes longer than this fails with STEP_TIMEOUT. */
  resetTimeoutMs: number;
}

/**
 * The page itself failed (crashed, hung, lost its browser): every instance in it is lost. On a
 * hang, `culprit` is the instance whose document was running when the call was stopped.
 */
export class BatchPageFault extends ArcadeGymError {
  constructor(
    code: 'PAGE_CRASHED' | 'STEP_TIMEOUT',
    message: string,
    readonly culprit: number | null = null,
  ) {
    super(code, message);
  }
}

/** Whether a game can share a batch page: its documents must be at the host page's origin. */
export function batchable(game: CatalogEntry): boolean {
  return !game.url || new URL(game.url).origin === GAME_ORIGIN;
}

/** How long to wait for the debugger to stop a hung page before giving up on it. */
const TERMINATE_WAIT_MS = 1_000;

function pageFaultOf(e: unknown, gameId: string): BatchPageFault | null {
  const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
  if (/has been closed|has disconnected|Target closed|Session closed|Browser closed|context was destroyed|Connection closed/i.test(message)) {
    return new BatchPageFault('PAGE_CRASHED', `${gameId}: the batch page or its browser went away (${message})`);
  }
  if (/crash/i.test(message)) return new BatchPageFault('PAGE_CRASHED', `${gameId}: the batch page crashed (${message})`);
  return null;
}

function timeoutAfter(ms: number, fault: () => Error): { promise: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(fault()), ms);
  });
  promise.catch(() => undefined);
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * One browser page holding several instances of one game (gym/batch/host-page.ts), each in
 * its own frame and addressed by slot. Every operation on many instances is one
 * `Runtime.evaluate`: that round trip, not the game, is most of a single-instance step.
 */
export class BatchedPage {
  private faultSeen: BatchPageFault | null = null;
  private closed = false;

  private constructor(
    readonly game: CatalogEntry,
    readonly browser: Browser,
    /**
     * The gym's own CDP channel to the host page (gym/browser/cdp-channel.ts): a step of the whole
     * batch is one message each way. Public for fault drills and benchmarks (gym/pool/faults.ts);
     * everything else goes through the methods below, which bound each call and record faults.
     */
    readonly channel: PageChannel,
    /** Closes the page with its browser context. */
    private readonly closePage: () => Promise<void>,
    private readonly options: BatchedPageOptions,
  ) {}

  /**
   * A fresh context and host page in `browser` (no instances yet: see `load`). The page is the
   * gym's own, which Playwright does not follow (gym/browser/own-page.ts: a frame load costs less),
   * in a browser with a local debugging endpoint; a Playwright context's page otherwise (a remote
   * browser), or when `kind` is 'playwright' (tests and benchmarks compare the two).
   */
  static async open(browser: Browser, game: CatalogEntry, options: BatchedPageOptions, kind: 'own' | 'playwright' = 'own'): Promise<BatchedPage> {
    if (!batchable(game)) {
      throw new ArcadeGymError('INVALID_OPTIONS', `${game.manifest.id} is served from ${game.url}: only games at the gym's origin can share a batch page`);
    }
    const m = game.manifest;
    const opening = timeoutAfter(
      options.resetTimeoutMs,
      () => new BatchPageFault('STEP_TIMEOUT', `${m.id}: the batch page did not open within ${options.resetTimeoutMs} ms`),
    );
    // What open() has made so far, to close should it fail or lose to the timeout.
    const made: { close?: () => Promise<void> } = {};
    const open = async () => {
      const viewport = { width: m.canvas.width, height: m.canvas.height, deviceScaleFactor: options.deviceScaleFactor };
      const own = kind === 'own' ? await openOwnPage(browser, viewport) : null;
      let channel: PageChannel;
      let navigate: () => Promise<unknown>;
      if (own) {
        made.close = own.close;
        channel = own.channel;
        await channel.send('Page.addScriptToEvaluateOnNewDocument', { source: batchInitScript(game), runImmediately: true });
        navigate = () => navigateOwnPage(channel, BATCH_HOST_URL);
      } else {
        const context = await browser.newContext({
          viewport: { width: viewport.width, height: viewport.height },
          deviceScaleFactor: viewport.deviceScaleFactor,
          serviceWorkers: 'block',
        });
        made.close = () => context.close().catch(() => undefined);
        await context.addInitScript({ content: batchInitScript(game) });
        const page = await context.newPage();
        channel = await openPageChannel(page);
        navigate = () => page.goto(BATCH_HOST_URL, { waitUntil: 'load', timeout: options.resetTimeoutMs });
      }
      // Through the page's own channel, not Playwright's route handler: a frame load then costs half the CPU (serve-files-cdp.ts).
      await serveFilesOverChannel(channel, [{ prefix: '/', dir: PUBLIC_DIR }], { [BATCH_HOST_PATH]: BATCH_HOST_HTML });
      await navigate();
      const close = made.close;
      return new BatchedPage(game, browser, channel, close, options);
    };
    const opened = open();
    try {
      return await Promise.race([opened, opening.promise]);
    } catch (e) {
      // Closed now, or (when the timeout won) once it has opened.
      void opened.then(
        (page) => page.close(),
        () => made.close?.(),
      );
      throw e instanceof ArcadeGymError ? e : (pageFaultOf(e, m.id) ?? e);
    } finally {
      opening.cancel();
    }
  }

  /** Why this page can no longer be trusted; null while it can. */
  get fault(): BatchPageFault | null {
    return this.faultSeen;
  }

  /** Loads a fresh game document in each slot (replacing what was there), seeded as given. */
  load(items: readonly { slot: number; seed: number }[]): Promise<InstanceResult<true>[]> {
    const m = this.game.manifest;
    const url = entryUrl(this.game);
    const arg = items.map(({ slot, seed }) => ({ slot, seed, url, width: m.canvas.width, height: m.canvas.height }));
    return this.call(`__arcadeBatch.load(${JSON.stringify(arg)})`, true, this.options.resetTimeoutMs);
  }

  /** One step in each listed instance. */
  step(items: readonly (readonly [number, PageStepRequest])[]): Promise<InstanceResult<PageStepResult>[]> {
    return this.call(`__arcadeBatch.step(${JSON.stringify(items)})`, false, this.options.stepTimeoutMs, true);
  }

  /** Several steps in each listed instance (reset plans, replays). */
  run(items: readonly (readonly [number, readonly PageStepRequest[]])[]): Promise<InstanceResult<PageStepResult[]>[]> {
    return this.call(`__arcadeBatch.run(${JSON.stringify(items)})`, false, this.options.stepTimeoutMs, true);
  }

  frameHash(slots: readonly number[]): Promise<InstanceResult<string>[]> {
    return this.call(`__arcadeBatch.frameHash(${JSON.stringify(slots)})`, false, this.options.stepTimeoutMs, true);
  }

  /** Drops the listed instances' documents. */
  async remove(slots: readonly number[]): Promise<void> {
    await this.call(`__arcadeBatch.remove(${JSON.stringify(slots)})`, false, this.options.stepTimeoutMs);
  }

  /**
   * Readies the page for other episodes: the listed instances' documents are dropped and the
   * origin's real storage (Cache Storage, the file system: what the runtime's in-memory storage
   * does not cover) is cleared, as a single-instance env's reused tab is (gym/env recycleTab).
   * Each later `load` then starts from what a freshly opened host page shows.
   */
  async recycle(slots: readonly number[]): Promise<void> {
    await this.remove(slots);
    await this.channel.send('Storage.clearDataForOrigin', { origin: GAME_ORIGIN, storageTypes: 'all' });
  }

  /** Runs `fn(arg)` in the host page, outside the step path and its bounds (tests, benchmarks); `arg` travels as JSON. */
  evaluateInHost<R>(fn: () => R | Promise<R>): Promise<R>;
  evaluateInHost<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  evaluateInHost<R, A>(fn: (arg?: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.channel.evaluate<R>(`(${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)})`, { awaitPromise: true });
  }

  /** Whether the page can still be used: not closed, not faulted, its browser connected. */
  get usable(): boolean {
    return !this.closed && !this.faultSeen && !this.channel.isGone && this.browser.isConnected();
  }

  /**
   * One evaluation in the host page, bounded by `timeoutMs`. A crash, a lost browser or a
   * timeout marks the page faulty (and stops a hung script, naming the instance it was in).
   * `json`: the value is plain data, handed back as one JSON string (cdp-channel.ts evaluateJson).
   */
  private async call<R>(expression: string, awaitPromise: boolean, timeoutMs: number, json = false): Promise<R> {
    const id = this.game.manifest.id;
    if (this.closed) throw new BatchPageFault('PAGE_CRASHED', `${id}: the batch page was closed`);
    if (this.faultSeen) throw this.faultSeen;
    const timeout = timeoutAfter(
      timeoutMs,
      () => new BatchPageFault('STEP_TIMEOUT', `${id}: the batch page did not answer within ${timeoutMs} ms (hung game?)`),
    );
    try {
      const value = json ? evaluateJson<R>(this.channel, expression) : this.channel.evaluate<R>(expression, { awaitPromise });
      return await Promise.race([value, this.channel.gone, timeout.promise]);
    } catch (e) {
      if (this.closed) throw new BatchPageFault('PAGE_CRASHED', `${id}: the batch page was closed while it worked`);
      if (e instanceof PageScriptError) throw new Error(`${id}: ${e.message}`);
      let fault = e instanceof BatchPageFault ? e : pageFaultOf(e, id);
      if (!fault) throw e;
      if (fault.code === 'STEP_TIMEOUT') fault = new BatchPageFault('STEP_TIMEOUT', fault.message, await this.stopHungScript());
      this.faultSeen ??= fault;
      throw fault;
    } finally {
      timeout.cancel();
    }
  }

  /** Stops the script the page is stuck in; returns the instance it was running, if any. */
  private async stopHungScript(): Promise<number | null> {
    const within = <T>(p: Promise<T>) => {
      const t = timeoutAfter(TERMINATE_WAIT_MS, () => new Error('no answer'));
      return Promise.race([p, t.promise]).finally(() => t.cancel());
    };
    try {
      await within(this.channel.terminateExecution());
      const slot = await within(this.channel.evaluate<unknown>('__arcadeBatch.current'));
      return typeof slot === 'number' && slot >= 0 ? slot : null;
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.closePage();
  }
}

/** Why these options need the single-instance env (null when a batch can run them). */
export function batchProblem(game: CatalogEntry, env: Pick<EnvOptions, 'observation' | 'paint'>): string | null {
  const kinds = Array.isArray(env.observation) ? env.observation : [env.observation];
  if (kinds.includes('screenshot')) return 'screenshot observations need a page per env';
  if (env.paint) return 'painted pages need a page per env';
  if (kinds.includes('pixels') && game.manifest.renderer === 'dom')
    return `${game.manifest.id} renders with the DOM: its pixels are shrunk screenshots, which need a page per env`;
  if (!batchable(game)) return `it is served from ${game.url}, another origin than the batch page's`;
  return null;
}
