import { readFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import WebSocket from 'ws';
import { quietPlaywrightZones } from './playwright-zones';

/**
 * A Chrome DevTools Protocol channel to one page, for the calls made on every step.
 *
 * Playwright's client layer costs Node CPU on every call (stack capture, zones, bookkeeping),
 * more than the rest of a step's Node work together (bench/README.md, Design measurements). Browsers launched by
 * `launchBrowser` also listen on a local debugging port (`--remote-debugging-port=0`); this
 * module opens one WebSocket per such browser and attaches a flat session to each page target
 * on it, so a step is one JSON message each way, and the messages sent in one tick (a vector
 * env's pages, sessions answered in one read) leave in one socket write. Playwright still does everything else
 * (launching, contexts, navigation, screenshots). A browser without a local port (a remote
 * `ws://` browser) gets the same API over a Playwright CDPSession. A raw evaluate also turns off
 * the process-wide promise hooks that Playwright's zones leave on (playwright-zones.ts).
 *
 * API (gym/env uses it for steps, gym/batch for its batched step call):
 *
 *   const ch = await openPageChannel(page);   // PageChannel; ch.kind: 'raw' | 'playwright'
 *   const r = await ch.evaluate<R>('globalThis.__arcade.step({...})');   // by value ({ awaitPromise } for async expressions)
 *   await ch.send<T>('Page.addScriptToEvaluateOnNewDocument', { source });   // any CDP command
 *   ch.on('Fetch.requestPaused', (params) => …);  // the session's events (gym/browser/serve-files-cdp.ts)
 *   ch.terminateExecution();                  // stops a hung script (answered even while the page is busy)
 *   ch.gone                                   // rejects once the page crashed or closed, or its browser went away
 *   await ch.close();                         // detaches (CDP state the session set up, such as its scripts, goes with it)
 *
 * Once the page is gone every pending and later call rejects with a `PageGoneError` whose
 * message starts "Target crashed" or "Target closed" (the words Playwright uses, which
 * gym/env's fault classification reads). An exception thrown by the page's own script rejects
 * with a `PageScriptError`. Results travel as CDP's JSON; the step path's come as one JSON
 * string made in the page (`evaluateJson`), and large binary results (pixels) are base64
 * strings inside it, decoded once in Node.
 */

export type ChannelKind = 'raw' | 'playwright';

export interface EvaluateOptions {
  awaitPromise?: boolean;
}

export interface PageChannel {
  readonly kind: ChannelKind;
  /** Evaluates `expression` in the page's main world and returns its value (JSON-serialisable); `awaitPromise` waits for a promise it gives. */
  evaluate<R>(expression: string, options?: EvaluateOptions): Promise<R>;
  /** Any CDP command on the page's session. */
  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Calls `listener` with the params of every `method` event of the page's session (such as Fetch.requestPaused). */
  on(method: string, listener: (params: Record<string, unknown>) => void): void;
  /** Asks V8 to stop the running script; resolves when the browser answered (or the page is gone). */
  terminateExecution(): Promise<void>;
  /** Rejects with a PageGoneError when the page crashes or closes or its browser goes away; never resolves. */
  readonly gone: Promise<never>;
  /** Whether the page is known to be gone. */
  readonly isGone: boolean;
  close(): Promise<void>;
}

/** The page (or its browser) went away: a renderer crash, the page or context closed, the browser lost. */
export class PageGoneError extends Error {
  override readonly name = 'PageGoneError';
}

/** The page's own script threw while evaluating an expression. */
export class PageScriptError extends Error {
  override readonly name = 'PageScriptError';
}

/**
 * Evaluates `expression`, whose value is plain JSON data, and returns it: the page hands it back
 * as one JSON string (undefined stays undefined). CDP's by-value results build a protocol value
 * per property in the renderer and convert it again in the browser process; one string costs
 * them little, measurably on the step path (bench/README.md, Design measurements). The values are
 * the same: JSON is what both carry.
 */
export async function evaluateJson<R>(channel: PageChannel, expression: string): Promise<R> {
  const text = await channel.evaluate<string | undefined>(`JSON.stringify(${expression})`);
  return (text === undefined ? undefined : JSON.parse(text)) as R;
}

/** The flag `launchBrowser` adds so a browser can be reached directly (local connections only). */
export const DEBUGGING_PORT_ARG = '--remote-debugging-port=0';

interface RuntimeEvaluateResult {
  result: { value?: unknown; type: string; description?: string };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

function valueOf<R>(r: RuntimeEvaluateResult): R {
  if (r.exceptionDetails) {
    const d = r.exceptionDetails;
    throw new PageScriptError(d.exception?.description?.split('\n')[0] ?? d.text);
  }
  return r.result.value as R;
}

const evaluateParams = (expression: string, options?: EvaluateOptions) => ({ expression, returnByValue: true, awaitPromise: options?.awaitPromise ?? false });

// ---------------------------------------------------------------- raw channel

/**
 * A client's frames must carry a mask, but any key will do, and masking protects proxies on a
 * network from crafted payloads: on a loopback connection to our own browser it protects
 * nothing. With an all-zero key ws sends a string as it is, without copying it into a buffer
 * and XOR-ing every byte of every message.
 */
const zeroMask = (mask: Buffer) => void mask.fill(0);

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  session: RawPageChannel | null;
}

/** One WebSocket to a browser's debugging endpoint, shared by all the pages attached through it. */
class BrowserLink {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly sessions = new Map<string, RawPageChannel>();
  private closedWith: PageGoneError | null = null;
  /** ws's TCP socket, held corked until the end of the tick once a message is sent (see `write`). */
  private readonly socket: Socket | null;
  private corked = false;

  private constructor(
    private readonly ws: WebSocket,
    /** Whether the browser runs headless (its command line has --headless). */
    readonly headless: boolean,
  ) {
    // ws keeps its socket in `_socket` (no public accessor); without it every message is written at once.
    const socket = (ws as unknown as { _socket?: unknown })._socket;
    this.socket = socket instanceof Socket ? socket : null;
    ws.on('message', (data: Buffer) => this.onMessage(data));
    ws.on('close', () => this.shutdown('Browser closed'));
    ws.on('error', () => this.shutdown('Browser closed'));
  }

  static connect(url: string, headless: boolean): Promise<BrowserLink> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024, generateMask: zeroMask });
      ws.once('open', () => resolve(new BrowserLink(ws, headless)));
      ws.once('error', reject);
    });
  }

  get alive(): boolean {
    return !this.closedWith;
  }

  /** Sends one command; `session` null for the browser's own session. */
  send<T>(session: RawPageChannel | null, method: string, params: Record<string, unknown> = {}): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (session?.goneError) return Promise.reject(session.goneError);
    const id = this.nextId++;
    const msg = session ? { id, method, params, sessionId: session.sessionId } : { id, method, params };
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, session });
      this.write(JSON.stringify(msg));
    });
  }

  /**
   * Messages sent in the same tick leave in one socket write: a write to the browser's loopback
   * TCP port is a system call that also runs the receiving side's network stack and wakes the
   * browser, and several pages' steps are sent in one tick (a vector env's pages, or sessions
   * whose answers arrived in one read). With 8 pooled sessions that is about 4 steps per write
   * rather than 1, and a third of the system CPU per step.
   */
  private write(text: string): void {
    const socket = this.socket;
    if (socket && !this.corked) {
      this.corked = true;
      socket.cork();
      process.nextTick(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    this.ws.send(text);
  }

  register(session: RawPageChannel): void {
    this.sessions.set(session.sessionId, session);
  }

  unregister(session: RawPageChannel): void {
    this.sessions.delete(session.sessionId);
  }

  private onMessage(data: Buffer): void {
    const msg = JSON.parse(data.toString('utf8')) as {
      id?: number;
      result?: unknown;
      error?: { message: string; data?: string };
      method?: string;
      params?: { sessionId?: string };
      sessionId?: string;
    };
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${msg.error.message}${msg.error.data ? ` (${msg.error.data})` : ''}`));
      else p.resolve(msg.result);
      return;
    }
    if (msg.method && msg.sessionId) this.sessions.get(msg.sessionId)?.emit(msg.method, msg.params ?? {});
    if (msg.method === 'Target.detachedFromTarget' && msg.params?.sessionId) {
      this.sessionGone(msg.params.sessionId, 'Target closed');
    } else if (msg.method === 'Inspector.targetCrashed' && msg.sessionId) {
      this.sessionGone(msg.sessionId, 'Target crashed');
    } else if (msg.method === 'Inspector.detached' && msg.sessionId) {
      this.sessionGone(msg.sessionId, 'Target closed');
    }
  }

  private sessionGone(sessionId: string, why: string): void {
    const s = this.sessions.get(sessionId);
    if (!s) return;
    this.sessions.delete(sessionId);
    const err = s.markGone(why);
    for (const [id, p] of this.pending) {
      if (p.session === s) {
        this.pending.delete(id);
        p.reject(err);
      }
    }
  }

  private shutdown(why: string): void {
    if (this.closedWith) return;
    this.closedWith = new PageGoneError(`${why}: the browser's debugging connection closed`);
    for (const s of this.sessions.values()) s.markGone(why);
    this.sessions.clear();
    for (const p of this.pending.values()) p.reject(p.session?.goneError ?? this.closedWith);
    this.pending.clear();
  }

  close(): void {
    this.ws.close();
  }
}

class RawPageChannel implements PageChannel {
  readonly kind = 'raw' as const;
  goneError: PageGoneError | null = null;
  readonly gone: Promise<never>;
  private rejectGone!: (e: Error) => void;
  private readonly listeners = new Map<string, ((params: Record<string, unknown>) => void)[]>();

  constructor(
    private readonly link: BrowserLink,
    readonly sessionId: string,
  ) {
    this.gone = new Promise<never>((_, reject) => (this.rejectGone = reject));
    this.gone.catch(() => undefined);
  }

  get isGone(): boolean {
    return !!this.goneError;
  }

  markGone(why: string): PageGoneError {
    if (!this.goneError) {
      this.goneError = new PageGoneError(why);
      this.rejectGone(this.goneError);
    }
    return this.goneError;
  }

  async evaluate<R>(expression: string, options?: EvaluateOptions): Promise<R> {
    // The calls made on every step: Playwright's promise hooks would tax each of them (see playwright-zones.ts).
    quietPlaywrightZones();
    return valueOf<R>(await this.link.send<RuntimeEvaluateResult>(this, 'Runtime.evaluate', evaluateParams(expression, options)));
  }

  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T> {
    return this.link.send<T>(this, method, params);
  }

  on(method: string, listener: (params: Record<string, unknown>) => void): void {
    this.listeners.set(method, [...(this.listeners.get(method) ?? []), listener]);
  }

  emit(method: string, params: Record<string, unknown>): void {
    for (const listener of this.listeners.get(method) ?? []) listener(params);
  }

  async terminateExecution(): Promise<void> {
    await this.link.send(this, 'Runtime.terminateExecution').catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.goneError) return;
    this.link.unregister(this);
    this.markGone('Target closed');
    await this.link.send(null, 'Target.detachFromTarget', { sessionId: this.sessionId }).catch(() => undefined);
  }
}

// ---------------------------------------------------------------- Playwright fallback

class PlaywrightPageChannel implements PageChannel {
  readonly kind = 'playwright' as const;
  readonly gone: Promise<never>;
  private goneError: Error | null = null;

  constructor(
    private readonly page: Page,
    private readonly session: CDPSession,
  ) {
    this.gone = new Promise<never>((_, reject) => {
      const fail = (why: string) => {
        this.goneError ??= new PageGoneError(why);
        reject(this.goneError);
      };
      page.once('crash', () => fail('Target crashed'));
      page.once('close', () => fail('Target closed'));
      if (page.isClosed()) fail('Target closed');
    });
    this.gone.catch(() => undefined);
  }

  get isGone(): boolean {
    return !!this.goneError;
  }

  async evaluate<R>(expression: string, options?: EvaluateOptions): Promise<R> {
    return valueOf<R>(await this.send<RuntimeEvaluateResult>('Runtime.evaluate', evaluateParams(expression, options)));
  }

  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T> {
    if (this.goneError) return Promise.reject(this.goneError);
    // A call to a renderer that died is never answered: the page's own events end the wait.
    const send = this.session.send as (m: string, p?: Record<string, unknown>) => Promise<T>;
    return Promise.race([send.call(this.session, method, params), this.gone]);
  }

  on(method: string, listener: (params: Record<string, unknown>) => void): void {
    (this.session.on as (m: string, l: (p: Record<string, unknown>) => void) => void).call(this.session, method, listener);
  }

  async terminateExecution(): Promise<void> {
    await this.send('Runtime.terminateExecution').catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.session.detach().catch(() => undefined);
    void this.page;
  }
}

// ---------------------------------------------------------------- opening

/** Per browser: its link, or null when it has no local debugging endpoint. */
const links = new WeakMap<Browser, Promise<BrowserLink | null>>();

/**
 * The browser's own debugging endpoint, from the DevToolsActivePort file Chromium writes into
 * its profile folder. The folder is on the browser process's command line, read from /proc
 * (Browser.getBrowserCommandLine needs --enable-automation, which would set navigator.webdriver).
 */
async function debuggingEndpoint(browser: Browser): Promise<{ url: string; headless: boolean } | null> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
    const pid = processInfo.find((p) => p.type === 'browser')?.id;
    if (!pid) return null;
    const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (!args.includes(DEBUGGING_PORT_ARG)) return null;
    const dirArg = args.find((a) => a.startsWith('--user-data-dir='));
    if (!dirArg) return null;
    const file = path.join(dirArg.slice('--user-data-dir='.length), 'DevToolsActivePort');
    // Written as the browser starts listening, which Playwright waits for; retried briefly all the same.
    for (let attempt = 0; attempt < 20; attempt++) {
      const text = await readFile(file, 'utf8').catch(() => '');
      const [port, wsPath] = text.split('\n');
      if (port && wsPath) return { url: `ws://127.0.0.1:${port.trim()}${wsPath.trim()}`, headless: args.includes('--headless') };
      await new Promise((r) => setTimeout(r, 25));
    }
    return null;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

function linkFor(browser: Browser): Promise<BrowserLink | null> {
  let link = links.get(browser);
  if (!link) {
    link = debuggingEndpoint(browser)
      .then((endpoint) => (endpoint ? BrowserLink.connect(endpoint.url, endpoint.headless) : null))
      .catch(() => null);
    links.set(browser, link);
  }
  return link;
}

async function attachTo(link: BrowserLink, targetId: string): Promise<RawPageChannel> {
  const { sessionId } = await link.send<{ sessionId: string }>(null, 'Target.attachToTarget', { targetId, flatten: true });
  const channel = new RawPageChannel(link, sessionId);
  link.register(channel);
  // Crash events (Inspector.targetCrashed) come only once the Inspector domain is on.
  await channel.send('Inspector.enable');
  return channel;
}

/**
 * A browser reached over its raw link, without Playwright: browser-level commands, and channels
 * to targets the caller made (gym/browser/own-page.ts).
 */
export interface RawBrowser {
  /** Whether the browser runs headless. */
  readonly headless: boolean;
  /** A command to the browser itself (Target.createBrowserContext and so on). */
  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** A channel to a target of the browser, attached through the raw link. */
  attach(targetId: string): Promise<PageChannel>;
}

/** `browser`'s raw link, or null when it has no local debugging endpoint (a remote browser). */
export async function rawBrowser(browser: Browser): Promise<RawBrowser | null> {
  const link = await linkFor(browser);
  if (!link?.alive) return null;
  return {
    headless: link.headless,
    send: (method, params) => link.send(null, method, params),
    attach: (targetId) => attachTo(link, targetId),
  };
}

/**
 * Opens a channel to `page`: raw when its browser has a local debugging endpoint, over a
 * Playwright CDPSession otherwise (or when `prefer` is 'playwright').
 */
export async function openPageChannel(page: Page, prefer: ChannelKind = 'raw'): Promise<PageChannel> {
  const session = await page.context().newCDPSession(page);
  const browser = page.context().browser();
  const link = prefer === 'raw' && browser ? await linkFor(browser) : null;
  if (!link || !link.alive) return new PlaywrightPageChannel(page, session);
  try {
    const { targetInfo } = (await session.send('Target.getTargetInfo')) as { targetInfo: { targetId: string } };
    const channel = await attachTo(link, targetInfo.targetId);
    await session.detach().catch(() => undefined);
    return channel;
  } catch {
    return new PlaywrightPageChannel(page, session);
  }
}

/** Closes the raw connection to `browser`, if one was opened (the browser closing does it too). */
export async function closeBrowserLink(browser: Browser): Promise<void> {
  const link = await links.get(browser);
  links.delete(browser);
  link?.close();
}
