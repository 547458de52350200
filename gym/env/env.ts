import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { getGame } from '../catalog';
import type { CatalogEntry } from '../catalog-schema';
import { ArcadeGymError } from '../errors';
import { PUBLIC_DIR, RUNTIME_BUNDLE_PATH } from '../paths';
import { acquireSharedBrowser, releaseSharedBrowser } from '../browser/launch';
import { GAME_ORIGIN, serveFiles } from '../browser/serve-files';
import { SeededRandom } from '../random/seeded-random';
import { EpisodeAccount } from './episode-account';
import { resetPlan } from './reset-plan';
import { RUNTIME_VERSION, type ObservationRequest, type PageStepRequest, type PageStepResult, type RuntimeConfig } from '../runtime/protocol';
import type { Action } from '../schema/action';
import { canonicalJson, type EpisodeRecord, type StepRecord, type VerifierState } from '../schema/records';
import { EnvOptions, type EnvOptionsInput, type ObservationKind } from './options';
import { decodePixels, type Observation, type Space } from './observation';
import { captureScreenshot } from './screenshot';
import { resolveAction } from './resolve-action';
import { entryUrl } from '../external/entry-url';
import type { Env, ResetOptions } from '../core/env';

export interface ResetResult {
  observation: Observation;
  info: ResetInfo;
}
export interface ResetInfo {
  seed: number;
  state: VerifierState;
  virtualTimeMs: number;
}
export interface StepInfo {
  step: number;
  score: number;
  state: VerifierState;
  virtualTimeMs: number;
  /** Errors the game itself threw while this step ran. */
  gameErrors?: string[];
  /** The complete episode record, on the step that ends the episode. */
  episode?: EpisodeRecord;
}
export interface StepResult {
  observation: Observation;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: StepInfo;
}
/** One step as a replay rebuilt it (see `restoreEpisode`): what the caller compares with what it saw. */
export interface ReplayedStep {
  reward: number;
  terminated: boolean;
  truncated: boolean;
  state: VerifierState;
  virtualTimeMs: number;
}

/** The final frame hash of an episode whose page was lost before it could be read. */
export const FRAME_HASH_UNAVAILABLE = 'unavailable';

/** Steps a restore replays per round trip: many fewer page calls, each still far below a step timeout. */
const RESTORE_BATCH = 64;
/** How long to wait for the debugger to stop a hung page before giving up on it. */
const TERMINATE_WAIT_MS = 1_000;
/** How long a reset waits for the previous episode's context to close before going on without it. */
const OLD_CONTEXT_CLOSE_WAIT_MS = 5_000;

declare global {
  // The in-page runtime, as seen from page.evaluate callbacks.
  var __arcade: import('../runtime/protocol').ArcadeRuntimeApi;
}

const readText = (file: string) => readFileSync(file, 'utf8');

/**
 * Playwright's errors for a page that is gone, as the gym's: a renderer crash ("Target
 * crashed"), or the page, its context or its browser closed under it (browser killed or
 * disconnected). Null for anything else, such as an exception thrown by the page's own code.
 * Only the first line is read: Playwright appends the browser's log, which mentions "crash".
 */
const goneByPage = new WeakMap<Page, Promise<never>>();

/** Rejects when the page crashes or closes (its browser going away closes it too). */
function pageGone(page: Page): Promise<never> {
  let gone = goneByPage.get(page);
  if (!gone) {
    gone = new Promise<never>((_, reject) => {
      page.once('crash', () => reject(new Error('Target crashed')));
      page.once('close', () => reject(new Error('Target closed')));
    });
    gone.catch(() => undefined);
    goneByPage.set(page, gone);
  }
  return gone;
}

function pageFaultOf(e: unknown, gameId: string): ArcadeGymError | null {
  const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
  if (/has been closed|has disconnected|Target closed|Session closed|Browser closed|context was destroyed|Connection closed/i.test(message)) {
    return new ArcadeGymError('PAGE_CRASHED', `${gameId}: the page or its browser went away (${message})`);
  }
  if (/crash/i.test(message)) return new ArcadeGymError('PAGE_CRASHED', `${gameId}: the page crashed (${message})`);
  return null;
}

/**
 * One game in one browser page, with Gymnasium's reset/step/close semantics. Every episode
 * gets a fresh browser context (no cookies, storage or caches carried over), the virtual-time
 * runtime and the verifier injected before the game's own scripts, and a seed.
 */
export class ArcadeEnv implements Env<Observation, Action | number, ResetInfo, StepInfo> {
  readonly game: CatalogEntry;
  readonly options: EnvOptions;
  readonly observationKinds: ReadonlySet<ObservationKind>;
  readonly maxSteps: number;
  readonly msPerStep: number;
  private readonly seeds: SeededRandom;
  private ownsBrowser: boolean;
  private browser: Browser | null = null;
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  /** A debugger session on the page, opened at reset while the page still answers: it stops hung steps. */
  private cdp: CDPSession | null = null;
  /** Why the current page can no longer be trusted (hung, crashed, browser gone); a reset clears it. */
  private pageFault: ArcadeGymError | null = null;
  private initScript: string | null = null;
  private closed = false;
  /** Counts resets, so the late steps of one that was abandoned (timed out) know to stop. */
  private resetAttempt = 0;
  /** The seed of a reset that failed, reused by the next reset without a seed. */
  private pendingSeed: number | null = null;

  private episode: EpisodeAccount | null = null;

  constructor(options: EnvOptionsInput, browser?: Browser) {
    const parsed = EnvOptions.safeParse(options);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ArcadeGymError('INVALID_OPTIONS', `Invalid env option "${issue.path.join('.')}": ${issue.message}`);
    }
    this.options = parsed.data;
    this.game = getGame(this.options.game);
    const kinds = Array.isArray(this.options.observation) ? this.options.observation : [this.options.observation];
    this.observationKinds = new Set(kinds);
    if (this.observationKinds.has('pixels') && this.game.manifest.renderer === 'dom') {
      throw new ArcadeGymError('INVALID_OPTIONS', `Game ${this.game.manifest.id} renders with the DOM: use "screenshot" observations instead of "pixels"`);
    }
    this.maxSteps = this.options.maxSteps ?? this.game.manifest.stepBudget;
    this.msPerStep = this.options.msPerStep ?? this.game.manifest.msPerStep;
    this.seeds = new SeededRandom(this.options.seed);
    this.ownsBrowser = !browser;
    this.browser = browser ?? null;
  }

  get manifest() {
    return this.game.manifest;
  }

  get actionSpace(): Space {
    return { type: 'Discrete', n: this.manifest.preset.length, names: this.manifest.preset.map((p) => p.name) };
  }

  get observationSpace(): Space {
    const spaces: Record<string, Space> = {};
    if (this.observationKinds.has('state')) spaces.state = { type: 'Json', description: `verifier state of ${this.manifest.id}` };
    if (this.observationKinds.has('vector')) {
      spaces.vector = { type: 'Box', shape: [this.game.featureNames.length], dtype: 'float32', low: -Infinity, high: Infinity, names: this.game.featureNames };
    }
    if (this.observationKinds.has('pixels')) {
      const p = this.options.pixels;
      spaces.pixels = { type: 'Box', shape: [p.height, p.width, p.grayscale ? 1 : 3], dtype: 'uint8', low: 0, high: 255 };
    }
    if (this.observationKinds.has('screenshot')) spaces.screenshot = { type: 'Image', format: this.options.screenshot.type };
    return { type: 'Dict', spaces };
  }

  /** The page of the current episode, for watching or debugging; null before the first reset. */
  get currentPage(): Page | null {
    return this.page;
  }

  private observationRequest(withFrameHash: boolean): ObservationRequest {
    const k = this.observationKinds;
    return {
      state: true,
      vector: k.has('vector'),
      pixels: k.has('pixels') ? this.options.pixels : null,
      frameHash: withFrameHash,
    };
  }

  private buildInitScript(seed: number): string {
    const m = this.manifest;
    const config: RuntimeConfig = {
      seed,
      canvas: { width: m.canvas.width, height: m.canvas.height, selector: m.canvas.selector },
      paint: this.options.paint || this.observationKinds.has('screenshot'),
      // Our canvas games draw everything on their canvas; third-party pages may not.
      pointerTarget: m.renderer !== 'dom' && !this.game.external ? 'game-element' : 'hit-test',
    };
    if (!this.initScript) {
      this.initScript = `${readText(RUNTIME_BUNDLE_PATH)}\n;${readText(path.join(PUBLIC_DIR, this.game.verifierPath))}`;
    }
    return `globalThis.__ARCADE_CONFIG__ = ${JSON.stringify(config)};\n${this.initScript}`;
  }

  /** Gymnasium's reset: `seed` starts a seeded episode; `options` are accepted for the Env interface (no arcade env reads any yet). */
  async reset(opts: ResetOptions = {}): Promise<ResetResult> {
    this.assertOpen();
    const seed = opts.seed ?? this.pendingSeed ?? this.nextSeed();
    if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) {
      throw new ArcadeGymError('INVALID_OPTIONS', `reset: seed must be an integer in [0, 2^32), got ${seed}`);
    }
    // A reset that fails keeps its seed for the next reset without one: a failure must not skip a seed of the sequence.
    if (opts.seed === undefined) this.pendingSeed = seed;
    if (!this.browser) this.browser = await acquireSharedBrowser();
    // Bounded as a whole: Playwright waits forever for a page whose renderer dies while it is being created.
    const attempt = ++this.resetAttempt;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ArcadeGymError('STEP_TIMEOUT', `${this.manifest.id}: reset did not finish within ${this.options.resetTimeoutMs} ms`)),
        this.options.resetTimeoutMs,
      );
    });
    try {
      const r = await Promise.race([this.openEpisode(seed, attempt), timeout]);
      this.pendingSeed = null;
      return r;
    } catch (e) {
      if (attempt === this.resetAttempt) {
        // Disown the attempt (its late steps see a newer attempt and stop) and close its context, which ends them.
        this.resetAttempt++;
        const ctx = this.context;
        this.context = null;
        this.page = null;
        this.cdp = null;
        this.episode = null;
        if (ctx) void ctx.close().catch(() => undefined);
      }
      if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This env was closed during reset');
      throw e instanceof ArcadeGymError ? e : (pageFaultOf(e, this.manifest.id) ?? e);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The work of a reset: a fresh context and page, the game loaded, its first frame drawn. */
  private async openEpisode(seed: number, attempt: number): Promise<ResetResult> {
    const current = () => {
      if (attempt !== this.resetAttempt || this.closed) throw new ArcadeGymError('STEP_TIMEOUT', `${this.manifest.id}: this reset was abandoned`);
    };
    const browser = this.browser!;
    const old = this.context;
    this.context = null;
    this.page = null;
    this.cdp = null;
    this.pageFault = null;
    // Whatever happens below, the previous episode is over: a failed reset must not leave it steppable.
    this.episode = null;
    if (old) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([old.close().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, OLD_CONTEXT_CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
    }
    current();

    const m = this.manifest;
    const context = await browser.newContext({
      viewport: { width: m.canvas.width, height: m.canvas.height },
      deviceScaleFactor: this.options.deviceScaleFactor,
      serviceWorkers: 'block',
    });
    if (attempt !== this.resetAttempt || this.closed) {
      void context.close().catch(() => undefined);
      current();
    }
    this.context = context;
    await serveFiles(context, [{ prefix: '/', dir: PUBLIC_DIR }]);
    await context.addInitScript({ content: this.buildInitScript(seed) });
    current();
    const page = await context.newPage();
    current();
    this.page = page;
    pageGone(page);
    // Opened alongside the navigation so it costs no extra time; a hung page may refuse a new session later.
    const cdp = context.newCDPSession(page).catch(() => null);
    await page.goto(entryUrl(this.game), { waitUntil: 'load', timeout: this.options.resetTimeoutMs });
    this.cdp = await cdp;
    current();
    const hasRuntime = await page.evaluate(() => typeof globalThis.__arcade === 'object');
    if (!hasRuntime) throw new ArcadeGymError('RUNTIME_MISSING', `The arcade runtime did not start on ${m.id}'s page`);

    // Start actions and the first frames (gym/env/reset-plan.ts): one round trip, the last reading is the first observation.
    const plan = resetPlan(m, this.observationRequest(false));
    const first = (await this.callPage((reqs) => reqs.map((req) => globalThis.__arcade.step(req)), plan)).at(-1)!;
    current();
    this.episode = new EpisodeAccount(
      { identity: this.identity(), seed, stepBudget: this.maxSteps, msPerStep: this.msPerStep, shaping: this.options.shaping },
      first.state,
      this.options.record,
    );
    return { observation: await this.toObservation(first), info: { seed, state: first.state, virtualTimeMs: first.virtualTimeMs } };
  }

  async step(action: Action | number): Promise<StepResult> {
    this.assertOpen();
    const ep = this.episode;
    if (!ep || !this.page) throw new ArcadeGymError('RESET_NEEDED', 'step() called before reset(): call reset() to start an episode');
    if (ep.done) {
      throw new ArcadeGymError('EPISODE_ENDED', `The episode has ended (${ep.terminated ? 'terminated' : 'truncated'} after ${ep.length} steps): call reset() before stepping again`);
    }
    const { action: recorded, gui } = resolveAction(this.manifest, action);
    if (this.pageFault) {
      // The page may hold a half-run step: continuing on it would record a state the game never reached.
      throw new ArcadeGymError(this.pageFault.code, `${this.pageFault.message}. The episode cannot continue on this page: reset(), or restoreEpisode() on a fresh one`);
    }
    // The final frame hash is only needed when the budget runs out on this step; a terminal
    // step asks for it separately (once per episode) since termination is not known ahead.
    const lastByBudget = ep.length + 1 >= this.maxSteps;
    const r = await this.callPage((req) => globalThis.__arcade.step(req), { action: gui, ms: this.msPerStep, obs: this.observationRequest(lastByBudget) });

    const { reward, terminated, truncated, info } = this.applyStep(recorded, r);
    if (ep.done && this.options.record) {
      const hash = r.frameHash ?? (await this.callPage(() => globalThis.__arcade.frameHash(), null));
      info.episode = await this.episodeRecord(hash);
    }
    return { observation: await this.toObservation(r), reward, terminated, truncated, info };
  }

  /** The episode bookkeeping of one step the page has run: shared by step() and restoreEpisode(). */
  private applyStep(recorded: Action, r: PageStepResult): { reward: number; terminated: boolean; truncated: boolean; info: StepInfo } {
    const ep = this.episode!;
    const { reward, terminated, truncated } = ep.record(recorded, r.state, r.virtualTimeMs);
    const info: StepInfo = { step: ep.length, score: r.state.score, state: r.state, virtualTimeMs: r.virtualTimeMs };
    if (r.errors.length) info.gameErrors = r.errors;
    return { reward, terminated, truncated, info };
  }

  /**
   * Rebuilds an episode on a fresh page (in the browser set by `useBrowser`, if any): a reset
   * to `seed`, then `actions` again, many per round trip. The game is deterministic, so the
   * new page is where the lost one was; the returned steps let the caller check that against
   * what it saw before trusting it. Afterwards `step()` continues the episode as if nothing
   * had happened, and its record is the one an uninterrupted run gives.
   */
  async restoreEpisode(seed: number, actions: readonly (Action | number)[]): Promise<ReplayedStep[]> {
    await this.reset({ seed });
    const ep = this.episode!;
    const replayed: ReplayedStep[] = [];
    const obs: ObservationRequest = { state: true, vector: false, pixels: null, frameHash: false };
    for (let start = 0; start < actions.length; start += RESTORE_BATCH) {
      const chunk = actions.slice(start, start + RESTORE_BATCH).map((a) => resolveAction(this.manifest, a));
      const requests: PageStepRequest[] = chunk.map((c) => ({ action: c.gui, ms: this.msPerStep, obs }));
      const results = await this.callPage((reqs) => reqs.map((req) => globalThis.__arcade.step(req)), requests);
      for (let i = 0; i < results.length; i++) {
        if (ep.done) {
          throw new ArcadeGymError('EPISODE_ENDED', `restoreEpisode: the replay ended the episode after ${ep.length} of ${actions.length} actions (the game is not deterministic?)`);
        }
        const { reward, terminated, truncated, info } = this.applyStep(chunk[i].action, results[i]);
        replayed.push({ reward, terminated, truncated, state: info.state, virtualTimeMs: info.virtualTimeMs });
      }
    }
    return replayed;
  }

  /**
   * Ends the current episode as truncated without asking the page, which may be gone: for a
   * caller that could not keep it going (or is shutting down). The record says so through
   * `totals.truncated` and a `finalFrameHash` of "unavailable". Null when no episode was started.
   */
  abandonEpisode(): EpisodeRecord | null {
    if (!this.episode) return null;
    this.episode.abandon();
    return this.buildEpisodeRecord(FRAME_HASH_UNAVAILABLE);
  }

  /** Whether an episode has started and not yet ended. */
  get episodeInProgress(): boolean {
    return !!this.episode && !this.episode.done;
  }

  /**
   * Runs later episodes in another browser: how a pool moves an env off a browser that died.
   * The current page, if any, stays where it is until the next reset.
   */
  useBrowser(browser: Browser): void {
    this.assertOpen();
    if (this.ownsBrowser) {
      this.ownsBrowser = false;
      if (this.browser) void releaseSharedBrowser();
    }
    this.browser = browser;
  }

  private identity() {
    return {
      gameId: this.manifest.id,
      gameVersion: this.manifest.version,
      verifierChecksum: this.game.verifierChecksum,
      runtimeVersion: RUNTIME_VERSION,
    };
  }

  private async episodeRecord(finalFrameHash: string): Promise<EpisodeRecord> {
    return this.buildEpisodeRecord(finalFrameHash);
  }

  private buildEpisodeRecord(finalFrameHash: string): EpisodeRecord {
    return this.episode!.episodeRecord({
      viewport: { width: this.manifest.canvas.width, height: this.manifest.canvas.height },
      deviceScaleFactor: this.options.deviceScaleFactor,
      browser: { name: 'chromium', version: this.browser?.version() ?? 'unknown' },
      finalFrameHash,
    });
  }

  /**
   * Runs one function in the page, bounded by the step timeout (page.evaluate has none). A
   * timeout, a crash or a lost browser marks the page as faulty; a hung page is also stopped,
   * so a game stuck in a loop does not keep burning a core.
   */
  private async callPage<A, R>(fn: (arg: A) => R, arg: A): Promise<R> {
    const page = this.page!;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ArcadeGymError('STEP_TIMEOUT', `${this.manifest.id}: the page did not answer within ${this.options.stepTimeoutMs} ms (hung game?)`)),
        this.options.stepTimeoutMs,
      );
    });
    try {
      return await Promise.race([this.evaluate(page, fn, arg), timeout]);
    } catch (e) {
      if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This env was closed while its page was working');
      const fault = e instanceof ArcadeGymError ? e : pageFaultOf(e, this.manifest.id);
      if (!fault) throw e;
      if (page === this.page) {
        this.pageFault = fault;
        if (fault.code === 'STEP_TIMEOUT') await this.stopHungPage();
      }
      throw fault;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One call in the page. Through the page's own CDP session when there is one: the same
   * function source Playwright would send, but as a single Runtime.evaluate without its
   * argument and result serialisation, which is most of a step's cost after the game itself.
   */
  private async evaluate<A, R>(page: Page, fn: (arg: A) => R, arg: A): Promise<R> {
    const cdp = this.cdp;
    if (!cdp || page !== this.page) {
      const run = page.evaluate as (f: (a: A) => R, a: A) => Promise<R>;
      return run.call(page, fn, arg);
    }
    // A CDP call to a renderer that died is never answered: the page's own crash and close
    // events end the wait instead, with the message Playwright's evaluate would give.
    const r = await Promise.race([
      cdp.send('Runtime.evaluate', { expression: `(${fn.toString()})(${JSON.stringify(arg ?? null)})`, returnByValue: true }),
      pageGone(page),
    ]);
    if (r.exceptionDetails) {
      throw new Error(`${this.manifest.id}: ${r.exceptionDetails.exception?.description?.split('\n')[0] ?? r.exceptionDetails.text}`);
    }
    return r.result.value as R;
  }

  /** Stops the script a hung page is running (the page stays usable, but its game state is suspect). */
  private async stopHungPage(): Promise<void> {
    const cdp = this.cdp;
    if (!cdp) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      cdp.send('Runtime.terminateExecution').catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, TERMINATE_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }

  private async toObservation(r: PageStepResult): Promise<Observation> {
    const k = this.observationKinds;
    const obs: Observation = {};
    if (k.has('state')) obs.state = r.state;
    if (k.has('vector') && r.vector) obs.vector = Float32Array.from(r.vector);
    if (k.has('pixels') && r.pixels) {
      const p = this.options.pixels;
      obs.pixels = decodePixels(r.pixels, p.width, p.height, p.grayscale);
    }
    if (k.has('screenshot')) {
      const s = this.options.screenshot;
      obs.screenshot = await captureScreenshot(this.page!, this.cdp, s);
    }
    return obs;
  }

  /** Step records of the current episode so far (empty when `record` is off). */
  get recordedSteps(): readonly StepRecord[] {
    return this.episode?.steps ?? [];
  }

  /** The record of the current (or just finished) episode so far. */
  async currentEpisodeRecord(): Promise<EpisodeRecord> {
    if (!this.episode || !this.page) throw new ArcadeGymError('RESET_NEEDED', 'No episode: call reset() first');
    return this.episodeRecord(await this.callPage(() => globalThis.__arcade.frameHash(), null));
  }

  /** Turn painting on (someone is watching) or off (the fast default). */
  async setPaint(on: boolean): Promise<void> {
    if (!this.page) throw new ArcadeGymError('RESET_NEEDED', 'No episode: call reset() first');
    await this.callPage((v) => globalThis.__arcade.setPaint(v), on);
  }

  /** Hash of the game's current frame (all canvas pixels). */
  async frameHash(): Promise<string> {
    if (!this.page) throw new ArcadeGymError('RESET_NEEDED', 'No episode: call reset() first');
    return this.callPage(() => globalThis.__arcade.frameHash(), null);
  }

  private nextSeed(): number {
    // The first reset uses the env's seed; later ones continue a seeded sequence, like Gymnasium's np_random.
    if (!this.episode && !this.context) return this.options.seed;
    return this.seeds.nextUint32();
  }

  private assertOpen(): void {
    if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This env has been closed');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const ctx = this.context;
    this.context = null;
    this.page = null;
    this.cdp = null;
    if (ctx) await ctx.close().catch(() => undefined);
    if (this.ownsBrowser && this.browser) await releaseSharedBrowser();
    this.browser = null;
  }
}

export { canonicalJson };

/** Creates an env; the browser is launched (or shared) on the first reset. */
export function makeEnv(options: EnvOptionsInput, browser?: Browser): ArcadeEnv {
  return new ArcadeEnv(options, browser);
}
