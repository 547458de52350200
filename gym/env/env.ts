import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CatalogEntry } from '../catalog-schema';
import { ArcadeGymError } from '../errors';
import { acquireSharedBrowser, releaseSharedBrowser } from '../browser/launch';
import type { PageChannel } from '../browser/cdp-channel';
import { SeededRandom } from '../random/seeded-random';
import { EpisodeAccount } from './episode-account';
import { SpareTabs } from './spare-tabs';
import { closeTab, openTab, pageFaultOf, recycleTab, type Tab, type TabSetup, tabUsable } from './tabs';
import { episodeInitScript } from './init-script';
import { resetPlan } from './reset-plan';
import { evaluateInPage, FIRST_FRAMES, FRAME_HASH, STEP, STEP_MANY } from './page-calls';
import type { ObservationRequest, PageStepRequest, PageStepResult } from '../runtime/protocol';
import type { Action } from '../schema/action';
import { canonicalJson, type EpisodeRecord, type StepRecord, type VerifierState } from '../schema/records';
import type { EnvOptions, EnvOptionsInput, ObservationKind } from './options';
import { resolveEnvOptions } from './resolve-options';
import type { Observation, Space } from './observation';
import { captureScreenshot } from './screenshot';
import { resolveAction } from './resolve-action';
import { stickyFor } from './sticky-actions';
import { gameIdentity, observationRequest, pageObservation, type PageReading, resetInfo, stepInfo } from './page-result';
import { screenshotPixels } from './screenshot-pixels';
import type { Env, ResetOptions } from '../core/env';

export interface ResetResult {
  observation: Observation;
  info: ResetInfo;
}
export interface ResetInfo {
  seed: number;
  state: VerifierState;
  virtualTimeMs: number;
  /** Which preset actions may change the game now (1) and which it would ignore (0), for games whose verifier says. */
  actionMask?: number[];
}
export interface StepInfo {
  step: number;
  score: number;
  state: VerifierState;
  virtualTimeMs: number;
  /** As in ResetInfo: the preset actions that may change the game from the state this step left. */
  actionMask?: number[];
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
  readonly actionSpace: Space;
  readonly observationSpace: Space;
  private seeds: SeededRandom;
  private ownsBrowser: boolean;
  private browser: Browser | null = null;
  /** The current episode's tab (context, page, the gym's CDP channel to it, the episode's init script). */
  private tab: Tab | null = null;
  /** The next episodes' tabs, loading or loaded in the background (see `prepareNextEpisode`), and the retired one. */
  private readonly spareTabs: SpareTabs;
  /** The context a reset is opening for its episode, until it is the tab's. */
  private opening: BrowserContext | null = null;
  /** Why the current page can no longer be trusted (hung, crashed, browser gone); a reset clears it. */
  private pageFault: ArcadeGymError | null = null;
  private closed = false;
  /** Counts resets, so the late steps of one that was abandoned (timed out) know to stop. */
  private resetAttempt = 0;
  /** The seed of a reset that failed, reused by the next reset without a seed. */
  private pendingSeed: number | null = null;

  private episode: EpisodeAccount | null = null;
  /** What opening and cleaning this env's tabs needs (tabs.ts). */
  private readonly tabSetup: TabSetup;

  constructor(options: EnvOptionsInput, browser?: Browser) {
    const resolved = resolveEnvOptions(options);
    this.options = resolved.options;
    this.game = resolved.game;
    this.observationKinds = resolved.observationKinds;
    this.maxSteps = resolved.maxSteps;
    this.msPerStep = resolved.msPerStep;
    this.actionSpace = resolved.actionSpace;
    this.observationSpace = resolved.observationSpace;
    this.seeds = new SeededRandom(this.options.seed);
    this.ownsBrowser = !browser;
    this.tabSetup = { game: this.game, options: this.options, initScript: (seed) => this.buildInitScript(seed) };
    this.spareTabs = new SpareTabs(this.tabSetup, () => this.closed);
    this.browser = browser ?? null;
  }

  get manifest() {
    return this.game.manifest;
  }

  /** The page of the current episode, for watching or debugging; null before the first reset. */
  get currentPage(): Page | null {
    return this.page;
  }

  private get page(): Page | null {
    return this.tab?.page ?? null;
  }

  /** The gym's own CDP channel to the page (gym/browser/cdp-channel.ts): steps go through it, and it stops hung scripts. */
  private get channel(): PageChannel | null {
    return this.tab?.channel ?? null;
  }

  /** What the page returns each step; a DOM game's pixels are a shrunk screenshot (toObservation): the page has no canvas to read. */
  private get reading(): PageReading {
    return { kinds: this.observationKinds, pixels: this.domPixels ? null : this.options.pixels, actionMask: this.game.actionMask };
  }

  private observationRequest(withFrameHash: boolean): ObservationRequest {
    return observationRequest(this.reading, withFrameHash);
  }

  /** Pixels of a DOM game: screenshots, shrunk in Node (screenshot-pixels.ts). */
  private get domPixels(): boolean {
    return this.observationKinds.has('pixels') && this.manifest.renderer === 'dom';
  }

  private buildInitScript(seed: number): string {
    return episodeInitScript(this.game, seed, { paint: this.options.paint || this.observationKinds.has('screenshot') || this.domPixels });
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
    // As gymnasium.Env.reset(seed=…): a seed reseeds the sequence the later unseeded resets draw from.
    else this.reseed(opts.seed);
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
      // A seed sequence is being played: its next episode loads in a spare tab while this one plays.
      if (this.options.spares > 0 && opts.seed === undefined && !this.closed) this.prepareNextEpisode();
      return r;
    } catch (e) {
      if (attempt === this.resetAttempt) {
        // Disown the attempt (its late steps see a newer attempt and stop) and close its context, which ends them.
        this.resetAttempt++;
        this.episode = null;
        void this.dropContext();
      }
      if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This env was closed during reset');
      throw e instanceof ArcadeGymError ? e : (pageFaultOf(e, this.manifest.id) ?? e);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The work of a reset: the game loaded with the episode's seed in a clean page, its first
   * frame drawn. A spare tab already loaded with this seed (see `prepareNextEpisode`) is
   * swapped in; else the page of the previous episode is reused when it is healthy (see
   * `recycleTab`); after a fault, or in another browser, the episode gets a fresh context.
   */
  private async openEpisode(seed: number, attempt: number): Promise<ResetResult> {
    const current = () => {
      if (attempt !== this.resetAttempt || this.closed) throw new ArcadeGymError('STEP_TIMEOUT', `${this.manifest.id}: this reset was abandoned`);
    };
    // Whatever happens below, the previous episode is over: a failed reset must not leave it steppable.
    this.episode = null;
    // A tab retired by the last swap that no spare took: not needed any more.
    this.spareTabs.dropRetired();
    let placed = await this.swapInSpare(seed, current);
    if (!placed && this.canReusePage()) {
      try {
        await recycleTab(this.tabSetup, this.tab!, seed, current);
        placed = true;
      } catch {
        // A page that fails to go round is not trusted any more: a fresh context below, as after any fault.
        current();
      }
    }
    if (!placed) await this.freshPage(seed, current);
    const m = this.manifest;
    // Start actions and the first frames (gym/env/reset-plan.ts): one round trip, the last reading is the first observation.
    const plan = resetPlan(m, this.observationRequest(false));
    const readings = await this.callPage(FIRST_FRAMES, plan);
    if (!readings) throw new ArcadeGymError('RUNTIME_MISSING', `The arcade runtime did not start on ${m.id}'s page`);
    const first = readings.at(-1)!;
    current();
    this.episode = new EpisodeAccount(
      {
        identity: gameIdentity(this.game),
        seed,
        stepBudget: this.maxSteps,
        msPerStep: this.msPerStep,
        shaping: this.options.shaping,
        ...stickyFor(this.options),
      },
      first.state,
      this.options.record,
    );
    return { observation: await this.toObservation(first), info: resetInfo(seed, first) };
  }

  /** Whether the previous episode's page can carry the next one. */
  private canReusePage(): boolean {
    return !this.pageFault && tabUsable(this.browser, this.tab);
  }

  /**
   * A spare tab loaded with `seed`, if there is one, becomes the episode's page (it waits for
   * the spare if that is still loading). The previous episode's tab is then closed, or, when
   * spares are wanted, cleaned in the background into the next one. False: no spare for this seed.
   */
  private async swapInSpare(seed: number, current: () => void): Promise<boolean> {
    const tab = await this.spareTabs.take(seed, this.browser, current);
    if (!tab) return false;
    const old = this.tab;
    const oldHealthy = !this.pageFault && tabUsable(this.browser, old);
    this.tab = tab;
    this.pageFault = null;
    // The old tab goes round into the next spare (prepareNextEpisode), or is closed now.
    this.spareTabs.retire(old && oldHealthy ? old : null);
    if (old && !oldHealthy) void closeTab(old);
    return true;
  }

  /**
   * Loads upcoming episodes in spare tabs in the background, so that a reset to one of their
   * seeds costs a swap and the first frames rather than a page load: with `seed`, that
   * episode (kept with the others, up to `max(1, spares)`); without, the next `spares`
   * episodes of the env's seed sequence (spares for other seeds are closed). A spare is a
   * browser context of its own (nothing the current episode does can reach it), opened fresh
   * or cleaned the way a reused page is (`recycleTab`); an episode played in it is the one a
   * fresh page gives. A reset naming another seed keeps the spares for a reset that names theirs
   * (the next unseeded one, drawing from the reseeded sequence, replaces them). Only for local
   * browsers (the gym's raw CDP channel).
   */
  prepareNextEpisode(seed?: number): void {
    this.assertOpen();
    if (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1)) {
      throw new ArcadeGymError('INVALID_OPTIONS', `prepareNextEpisode: seed must be an integer in [0, 2^32), got ${seed}`);
    }
    if (!this.tab || this.tab.channel?.kind !== 'raw' || !this.browser) return;
    let wanted: number[];
    if (seed === undefined) {
      wanted = this.upcomingSeeds(this.options.spares);
    } else {
      // The named episode joins those already loading; the oldest go past the limit.
      wanted = [...this.spareTabs.seeds.filter((x) => x !== seed), seed].slice(-Math.max(1, this.options.spares));
    }
    this.spareTabs.want(wanted, this.browser);
  }

  /** The seeds the spare tabs are loaded (or loading) with, in the order they will be played. */
  get spareSeeds(): number[] {
    return this.spareTabs.seeds;
  }

  /** The seeds the next `n` resets without one will use (the sequence is not advanced). */
  private upcomingSeeds(n: number): number[] {
    const out: number[] = [];
    if (this.pendingSeed !== null) out.push(this.pendingSeed);
    else if (!this.episode && !this.tab) out.push(this.options.seed);
    const state = this.seeds.getState();
    while (out.length < n) out.push(this.seeds.nextUint32());
    this.seeds.setState(state);
    return out.slice(0, n);
  }

  /** A fresh browser context and page for the episode (the previous one, if any, is closed first). */
  private async freshPage(seed: number, current: () => void): Promise<void> {
    const browser = this.browser!;
    this.pageFault = null;
    const old = this.dropContext();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([old, new Promise((r) => (timer = setTimeout(r, OLD_CONTEXT_CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    current();
    try {
      this.tab = await openTab(this.tabSetup, browser, seed, current, (c) => (this.opening = c));
    } finally {
      this.opening = null;
    }
  }

  /** Forgets the current tab (and one a reset is opening) and closes it (resolves when closed). */
  private dropContext(): Promise<void> {
    const tab = this.tab;
    const opening = this.opening;
    this.tab = null;
    this.opening = null;
    void opening?.close().catch(() => undefined);
    return tab ? closeTab(tab) : Promise.resolve();
  }

  async step(action: Action | number): Promise<StepResult> {
    this.assertOpen();
    const ep = this.episode;
    if (!ep || !this.page) throw new ArcadeGymError('RESET_NEEDED', 'step() called before reset(): call reset() to start an episode');
    if (ep.done) {
      throw new ArcadeGymError(
        'EPISODE_ENDED',
        `The episode has ended (${ep.terminated ? 'terminated' : 'truncated'} after ${ep.length} steps): call reset() before stepping again`,
      );
    }
    const offered = resolveAction(this.manifest, action);
    const repeat = ep.repeatedAction();
    const { action: recorded, gui } = repeat !== null ? resolveAction(this.manifest, repeat) : offered;
    if (this.pageFault) {
      // The page may hold a half-run step: continuing on it would record a state the game never reached.
      throw new ArcadeGymError(
        this.pageFault.code,
        `${this.pageFault.message}. The episode cannot continue on this page: reset(), or restoreEpisode() on a fresh one`,
      );
    }
    // The final frame hash is only needed when the budget runs out on this step; a terminal
    // step asks for it separately (once per episode) since termination is not known ahead.
    const lastByBudget = ep.length + 1 >= this.maxSteps;
    const r = await this.callPage(STEP, { action: gui, ms: this.msPerStep, obs: this.observationRequest(lastByBudget) });

    const { reward, terminated, truncated, info } = this.applyStep(recorded, r);
    if (ep.done && this.options.record) {
      const hash = r.frameHash ?? (await this.callPage(FRAME_HASH, null));
      info.episode = await this.episodeRecord(hash);
    }
    return { observation: await this.toObservation(r), reward, terminated, truncated, info };
  }

  /** The episode bookkeeping of one step the page has run: shared by step() and restoreEpisode(). */
  private applyStep(recorded: Action, r: PageStepResult): { reward: number; terminated: boolean; truncated: boolean; info: StepInfo } {
    const ep = this.episode!;
    const { reward, terminated, truncated } = ep.record(recorded, r.state, r.virtualTimeMs);
    return { reward, terminated, truncated, info: stepInfo(ep.length, r) };
  }

  /**
   * Rebuilds an episode on a fresh page (in the browser set by `useBrowser`, if any): a reset
   * to `seed`, then `actions` again, many per round trip. The game is deterministic, so the
   * new page is where the lost one was; the returned steps let the caller check that against
   * what it saw before trusting it. Afterwards `step()` continues the episode as if nothing
   * had happened, and its record is the one an uninterrupted run gives.
   */
  async restoreEpisode(seed: number, actions: readonly (Action | number)[]): Promise<ReplayedStep[]> {
    // A rebuilt episode is the same episode: the seed sequence goes on as if it had not been lost.
    const sequence = this.seeds;
    await this.reset({ seed }).finally(() => {
      this.seeds = sequence;
    });
    const ep = this.episode!;
    const replayed: ReplayedStep[] = [];
    const obs: ObservationRequest = { state: true, vector: false, pixels: null, frameHash: false };
    for (let start = 0; start < actions.length; start += RESTORE_BATCH) {
      const chunk = actions.slice(start, start + RESTORE_BATCH).map((a) => resolveAction(this.manifest, a));
      const requests: PageStepRequest[] = chunk.map((c) => ({ action: c.gui, ms: this.msPerStep, obs }));
      const results = await this.callPage(STEP_MANY, requests);
      for (let i = 0; i < results.length; i++) {
        if (ep.done) {
          throw new ArcadeGymError(
            'EPISODE_ENDED',
            `restoreEpisode: the replay ended the episode after ${ep.length} of ${actions.length} actions (the game is not deterministic?)`,
          );
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
    // Spares loaded in the old browser would only be found unusable at the next reset.
    if (browser !== this.browser) void this.spareTabs.close();
    this.browser = browser;
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

  private evaluate<A, R>(page: Page, fn: (arg: A) => R, arg: A): Promise<R> {
    return evaluateInPage(page, page === this.page ? this.channel : null, fn, arg, this.manifest.id);
  }

  /** Stops the script a hung page is running (the page stays usable, but its game state is suspect). */
  private async stopHungPage(): Promise<void> {
    const channel = this.channel;
    if (!channel) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([channel.terminateExecution(), new Promise<void>((resolve) => (timer = setTimeout(resolve, TERMINATE_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private async toObservation(r: PageStepResult): Promise<Observation> {
    const k = this.observationKinds;
    const obs = pageObservation(this.reading, r);
    if (this.domPixels) obs.pixels = screenshotPixels(await captureScreenshot(this.page!, this.channel, { type: 'png' }), this.options.pixels);
    if (k.has('screenshot')) {
      const s = this.options.screenshot;
      obs.screenshot = await captureScreenshot(this.page!, this.channel, s);
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
    return this.episodeRecord(await this.callPage(FRAME_HASH, null));
  }

  /** Turn painting on (someone is watching) or off (the fast default). */
  async setPaint(on: boolean): Promise<void> {
    if (!this.page) throw new ArcadeGymError('RESET_NEEDED', 'No episode: call reset() first');
    await this.callPage((v) => globalThis.__arcade.setPaint(v), on);
  }

  /** Hash of the game's current frame (all canvas pixels). */
  async frameHash(): Promise<string> {
    if (!this.page) throw new ArcadeGymError('RESET_NEEDED', 'No episode: call reset() first');
    return this.callPage(FRAME_HASH, null);
  }

  private reseed(seed: number): void {
    this.seeds = new SeededRandom(seed);
    this.pendingSeed = null;
  }

  private nextSeed(): number {
    // The first reset uses the env's seed; later ones continue a seeded sequence, like Gymnasium's np_random.
    if (!this.episode && !this.tab) return this.options.seed;
    return this.seeds.nextUint32();
  }

  private assertOpen(): void {
    if (this.closed) throw new ArcadeGymError('ENV_CLOSED', 'This env has been closed');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([this.dropContext(), this.spareTabs.close()]);
    if (this.ownsBrowser && this.browser) await releaseSharedBrowser();
    this.browser = null;
  }
}

export { canonicalJson };

/** Creates an env; the browser is launched (or shared) on the first reset. */
export function makeEnv(options: EnvOptionsInput, browser?: Browser): ArcadeEnv {
  return new ArcadeEnv(options, browser);
}
