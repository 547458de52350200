import { randomBytes } from 'node:crypto';
import type { Browser, CDPSession } from 'playwright-core';
import { chromium } from 'playwright-core';
import { launchBrowser } from '../browser/launch';
import { ownPagesOpen } from '../browser/own-page';
import { ArcadeGymError } from '../errors';
import { ServiceError } from './errors';
import { PoolOptions, type PoolOptionsInput } from './options';
import { findProcessByArg, isAlive, processTree } from './processes';

/**
 * M browsers × N pages. A lease reserves one page of one browser for a session or a
 * sub-env (which keeps one context and page, reloaded clean each episode, fresh after a fault). Browsers are launched when every
 * running one is full and closed after sitting empty for a while; a periodic probe replaces
 * browsers that stop answering, and a browser that dies takes nothing down with it: its
 * leases are moved to another (or a new) browser the next time their holder asks.
 */

/** 'draining': being recycled; its pages finish their episodes there and move at their next reset. */
type EntryState = 'launching' | 'ready' | 'draining' | 'dead' | 'closing';

/** @internal A browser of the pool and the slots placed in it. */
export interface BrowserEntry {
  id: number;
  /** A command-line switch that makes the browser's process findable in /proc. */
  tag: string;
  state: EntryState;
  ready: Promise<Browser>;
  browser: Browser | null;
  pid: number | null;
  /** A browser-level debugger session: the health probe. */
  cdp: CDPSession | null;
  slots: Set<PageSlot>;
  /** When the last lease left (for shrinking). */
  idleSince: number;
  healthFailures: number;
  launchedAt: number;
  /** Episodes started in this browser (see recycleAfterEpisodes). */
  episodes: number;
}

export interface PoolStats {
  browsers: { id: number; pid: number | null; state: EntryState; leases: number; pages: number }[];
  leases: number;
  capacity: number;
  /** Pages open in the pool's browsers right now. */
  pages: number;
  launches: number;
  /** Browsers that died or were replaced for failing health checks. */
  browsersLost: number;
  browsersRetired: number;
  /** Browsers replaced after recycleAfterEpisodes episodes. */
  browsersRecycled: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A browser that is up and holds (or may hold) pages. */
const hasProcess = (e: BrowserEntry) => e.state === 'ready' || e.state === 'draining';

/** Pages open in `browser`: those of Playwright's contexts and the gym's own (batch pages: gym/browser/own-page.ts). */
const pagesIn = (browser: Browser) => browser.contexts().reduce((n, c) => n + c.pages().length, 0) + ownPagesOpen(browser);

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** One page's worth of a browser, held by a session or a sub-env. */
export class PageSlot {
  private released = false;
  private readonly lostListeners = new Set<() => void>();

  /** @internal Use BrowserPool.lease(). */
  constructor(
    private readonly pool: BrowserPool,
    /** @internal */ public entry: BrowserEntry,
  ) {}

  /** The browser this slot is in now (it changes when a browser is replaced). */
  get browser(): Browser {
    const b = this.entry.browser;
    if (!b) throw new ServiceError('BROWSER_UNAVAILABLE', 'This slot has no running browser yet: call healthyBrowser()');
    return b;
  }

  /** The pool's id of the browser this slot is in; changes when the slot moves. */
  get browserId(): number {
    return this.entry.id;
  }

  /** Whether the browser under this slot has died (the holder's page is gone too). */
  get lost(): boolean {
    return this.entry.state === 'dead';
  }

  /** Calls `listener` when the browser under this slot dies; returns an unsubscribe function. */
  onLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** @internal */
  notifyLost(): void {
    for (const l of this.lostListeners) l();
  }

  /**
   * A browser that is running: this slot's, or a replacement when it died. With `probe`, the
   * browser must also answer a debugger round trip (after a fault, to tell "page crashed" from
   * "browser dying"). With `newEpisode`, an episode is about to start there: counted towards
   * recycling, and a slot in a browser being recycled moves to another first.
   */
  healthyBrowser(opts: { probe?: boolean; newEpisode?: boolean } = {}): Promise<Browser> {
    if (this.released) throw new ServiceError('POOL_CLOSED', 'This page slot has been released');
    return this.pool.healthyBrowserFor(this, opts.probe ?? false, opts.newEpisode ?? false);
  }

  /** Gives the page back to the pool (idempotent). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.lostListeners.clear();
    this.pool.releaseSlot(this);
  }
}

export class BrowserPool {
  readonly options: PoolOptions;
  /** Tags this pool's browsers' command lines, so tests and benchmarks can find their processes. */
  readonly poolTag = `arcade-pool-${randomBytes(4).toString('hex')}`;
  private readonly entries: BrowserEntry[] = [];
  private nextId = 1;
  private closed = false;
  private healthTimer: NodeJS.Timeout | null = null;
  private healthRunning = false;
  private counters = { launches: 0, browsersLost: 0, browsersRetired: 0, browsersRecycled: 0 };
  /** Every browser process this pool started (also after it exited), for leak checks. */
  private readonly startedPids: number[] = [];

  constructor(options: PoolOptionsInput = {}) {
    const parsed = PoolOptions.safeParse(options);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ArcadeGymError('INVALID_OPTIONS', `Invalid pool option "${issue.path.join('.')}": ${issue.message}`);
    }
    this.options = parsed.data;
    if (this.options.healthIntervalMs > 0) {
      this.healthTimer = setInterval(() => void this.checkHealth(), this.options.healthIntervalMs);
      this.healthTimer.unref();
    }
    for (let i = 0; i < this.options.minBrowsers; i++) this.launch();
  }

  /** Most pages the pool will hold at once. */
  get capacity(): number {
    return this.options.maxBrowsers * this.options.pagesPerBrowser;
  }

  get leases(): number {
    return this.entries.reduce((n, e) => n + e.slots.size, 0);
  }

  /**
   * Reserves a page in a running browser, launching one when all are full. Throws BUSY when
   * the pool is at capacity: callers decide whether and when to retry, nothing queues here.
   */
  async lease(): Promise<PageSlot> {
    if (this.closed) throw new ServiceError('POOL_CLOSED', 'The browser pool has been closed');
    // Counted over every browser: pages still in one being recycled hold their places.
    if (this.leases >= this.capacity) throw this.busy();
    const entry = this.placeFor();
    const slot = new PageSlot(this, entry);
    entry.slots.add(slot);
    try {
      await this.healthyBrowserFor(slot, false);
    } catch (e) {
      slot.release();
      throw e;
    }
    return slot;
  }

  /** A browser with room: the least loaded of the live ones, or a new one while under maxBrowsers. */
  private placeFor(): BrowserEntry {
    const live = this.entries.filter((e) => e.state === 'launching' || e.state === 'ready');
    const roomy = live.filter((e) => e.slots.size < this.options.pagesPerBrowser);
    if (roomy.length) return roomy.reduce((a, b) => (b.slots.size < a.slots.size ? b : a));
    if (live.length < this.options.maxBrowsers) return this.launch();
    throw this.busy();
  }

  private busy(): ServiceError {
    return new ServiceError(
      'BUSY',
      `All ${this.capacity} pages of the browser pool are in use (${this.options.maxBrowsers} browsers × ${this.options.pagesPerBrowser} pages)`,
      1_000,
    );
  }

  private launch(): BrowserEntry {
    const id = this.nextId++;
    const tag = `--arcade-gym-browser=${this.poolTag}-${id}`;
    const entry: BrowserEntry = {
      id,
      tag,
      state: 'launching',
      ready: Promise.resolve(null as unknown as Browser),
      browser: null,
      pid: null,
      cdp: null,
      slots: new Set(),
      idleSince: Date.now(),
      healthFailures: 0,
      launchedAt: Date.now(),
      episodes: 0,
    };
    entry.ready = this.launchWithRetries(entry);
    // Holders await `ready` themselves; this only keeps a failed launch from being unhandled.
    entry.ready.catch(() => undefined);
    this.entries.push(entry);
    return entry;
  }

  private async launchWithRetries(entry: BrowserEntry): Promise<Browser> {
    let last: unknown;
    for (let attempt = 1; attempt <= this.options.launchAttempts; attempt++) {
      try {
        const remote = this.options.remoteEndpoints;
        const browser = remote.length
          ? await chromium.connect(remote[entry.id % remote.length])
          : await launchBrowser({ executablePath: this.options.executablePath, extraArgs: [...this.options.extraArgs, entry.tag] });
        this.counters.launches++;
        entry.browser = browser;
        // A remote browser's process is on its own host: it is replaced by reconnecting, never killed from here.
        entry.pid = remote.length ? null : findProcessByArg(entry.tag);
        if (entry.pid) this.startedPids.push(entry.pid);
        browser.on('disconnected', () => this.onDisconnected(entry));
        entry.cdp = await browser.newBrowserCDPSession().catch(() => null);
        if (this.closed || entry.state !== 'launching') {
          await browser.close().catch(() => undefined);
          throw new ServiceError('POOL_CLOSED', 'The browser pool was closed while a browser was starting');
        }
        entry.state = 'ready';
        return browser;
      } catch (e) {
        if (e instanceof ServiceError) throw e;
        last = e;
        await sleep(200 * attempt);
      }
    }
    entry.state = 'dead';
    this.remove(entry);
    throw new ServiceError(
      'BROWSER_UNAVAILABLE',
      `Could not launch a browser after ${this.options.launchAttempts} attempts: ${last instanceof Error ? last.message.split('\n')[0] : last}`,
    );
  }

  private remove(entry: BrowserEntry): void {
    const i = this.entries.indexOf(entry);
    if (i >= 0) this.entries.splice(i, 1);
  }

  private onDisconnected(entry: BrowserEntry): void {
    if (entry.state === 'closing' || entry.state === 'dead') return;
    this.markDead(entry);
  }

  private markDead(entry: BrowserEntry): void {
    if (entry.state === 'dead') return;
    entry.state = 'dead';
    this.counters.browsersLost++;
    this.remove(entry);
    for (const slot of entry.slots) slot.notifyLost();
  }

  /** Kills a browser that no longer answers; its slots move on their holders' next request. */
  private retire(entry: BrowserEntry): void {
    this.markDead(entry);
    if (entry.pid && isAlive(entry.pid)) {
      try {
        process.kill(entry.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    } else {
      void entry.browser?.close().catch(() => undefined);
    }
  }

  /** @internal PageSlot.healthyBrowser */
  async healthyBrowserFor(slot: PageSlot, probe: boolean, newEpisode = false): Promise<Browser> {
    // Each pass either returns or moves the slot off a dead browser; a few passes cover a
    // replacement that itself dies while starting.
    for (let pass = 0; pass <= this.options.launchAttempts; pass++) {
      if (this.closed) throw new ServiceError('POOL_CLOSED', 'The browser pool has been closed');
      const entry = slot.entry;
      const usable = entry.state === 'launching' || entry.state === 'ready' || (entry.state === 'draining' && !newEpisode);
      if (usable) {
        let browser: Browser;
        try {
          browser = await entry.ready;
        } catch (e) {
          if (e instanceof ServiceError && e.code === 'POOL_CLOSED') throw e;
          if (pass === this.options.launchAttempts) throw e;
          continue;
        }
        if (!browser.isConnected()) {
          this.markDead(entry);
          continue;
        }
        if (probe && !(await this.probe(entry))) {
          this.retire(entry);
          continue;
        }
        if (newEpisode) this.countEpisode(entry);
        return browser;
      }
      // The browser died or is being recycled: move the slot (it keeps its place in the capacity count).
      entry.slots.delete(slot);
      if (entry.state === 'draining' && entry.slots.size === 0) void this.closeEntry(entry);
      const next = this.placeFor();
      next.slots.add(slot);
      slot.entry = next;
    }
    throw new ServiceError('BROWSER_UNAVAILABLE', 'No browser stayed up long enough to take this page');
  }

  /** Counts an episode started in `entry`; at the limit, the browser starts draining. */
  private countEpisode(entry: BrowserEntry): void {
    entry.episodes++;
    const limit = this.options.recycleAfterEpisodes;
    // A remote browser is another host's to manage: reconnecting would give back the same one.
    if (limit > 0 && entry.episodes >= limit && entry.state === 'ready' && !this.options.remoteEndpoints.length) {
      entry.state = 'draining';
      this.counters.browsersRecycled++;
    }
  }

  private async probe(entry: BrowserEntry): Promise<boolean> {
    if (!entry.browser?.isConnected()) return false;
    if (!entry.cdp) return true;
    const r = await withTimeout(
      entry.cdp.send('Browser.getVersion').then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      this.options.healthTimeoutMs,
    );
    return r === 'ok';
  }

  /** @internal PageSlot.release */
  releaseSlot(slot: PageSlot): void {
    const entry = slot.entry;
    entry.slots.delete(slot);
    if (entry.slots.size === 0) {
      entry.idleSince = Date.now();
      if (entry.state === 'draining') void this.closeEntry(entry);
    }
  }

  /**
   * One health pass (the timer runs it every healthIntervalMs): browsers that stopped
   * answering are replaced, empty ones past idleBrowserMs are closed, and the pool is topped
   * up to minBrowsers.
   */
  async checkHealth(): Promise<void> {
    if (this.closed || this.healthRunning) return;
    this.healthRunning = true;
    try {
      const now = Date.now();
      for (const entry of this.entries.filter((e) => e.state === 'ready')) {
        if (await this.probe(entry)) entry.healthFailures = 0;
        else if (++entry.healthFailures >= 2 || !entry.browser?.isConnected()) this.retire(entry);
      }
      const live = () => this.entries.filter((e) => e.state === 'launching' || e.state === 'ready');
      for (const entry of live()) {
        if (live().length <= this.options.minBrowsers) break;
        if (entry.state === 'ready' && entry.slots.size === 0 && now - entry.idleSince >= this.options.idleBrowserMs) {
          this.counters.browsersRetired++;
          await this.closeEntry(entry);
        }
      }
      while (!this.closed && live().length < this.options.minBrowsers) this.launch();
    } finally {
      this.healthRunning = false;
    }
  }

  private async closeEntry(entry: BrowserEntry): Promise<void> {
    if (entry.state === 'dead' || entry.state === 'closing') return;
    entry.state = 'closing';
    this.remove(entry);
    const browser = await entry.ready.catch(() => null);
    if (
      browser &&
      (await withTimeout(
        browser.close().catch(() => undefined),
        5_000,
      )) === 'timeout' &&
      entry.pid
    ) {
      try {
        process.kill(entry.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
  }

  /** Pages open in the pool's browsers now (one per session or sub-env with an episode). */
  pagesOpen(): number {
    let n = 0;
    for (const e of this.entries) {
      if (!hasProcess(e) || !e.browser) continue;
      n += pagesIn(e.browser);
    }
    return n;
  }

  stats(): PoolStats {
    const browsers = this.entries.map((e) => ({
      id: e.id,
      pid: e.pid,
      state: e.state,
      leases: e.slots.size,
      pages: e.browser && hasProcess(e) ? pagesIn(e.browser) : 0,
    }));
    return {
      browsers,
      leases: this.leases,
      capacity: this.capacity,
      pages: browsers.reduce((n, b) => n + b.pages, 0),
      ...this.counters,
    };
  }

  /** Process ids of the running browsers (not their children). */
  browserPids(): number[] {
    return this.entries.filter((e) => hasProcess(e) && e.pid).map((e) => e.pid!);
  }

  /** Every process of the running browsers: browser, zygotes, renderers, utilities. */
  processTree(): number[] {
    return processTree(this.browserPids());
  }

  /** Every browser process this pool has started, including ones that have exited since. */
  get launchedPids(): readonly number[] {
    return this.startedPids;
  }

  /** Closes every browser (their pages with them). Holders' later requests fail with POOL_CLOSED. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.healthTimer) clearInterval(this.healthTimer);
    const entries = [...this.entries];
    await Promise.all(entries.map((e) => this.closeEntry(e)));
    for (const e of entries) for (const slot of e.slots) slot.notifyLost();
  }
}
