import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { getGame } from '../catalog';
import type { CatalogEntry } from '../catalog-schema';
import { ArcadeGymError } from '../errors';
import { PUBLIC_DIR, RUNTIME_BUNDLE_PATH } from '../paths';
import { acquireSharedBrowser, releaseSharedBrowser } from '../browser/launch';
import { GAME_ORIGIN, serveFiles } from '../browser/serve-files';
import { SeededRandom } from '../runtime/seeded-random';
import { FRAME_MS } from '../runtime/virtual-clock';
import { RUNTIME_VERSION, type ObservationRequest, type PageStepRequest, type PageStepResult, type RuntimeConfig } from '../runtime/protocol';
import type { Action } from '../schema/action';
import { SCHEMA_VERSION, canonicalJson, type EpisodeRecord, type StepRecord, type VerifierState } from '../schema/records';
import { EnvOptions, type EnvOptionsInput, type ObservationKind } from './options';
import { decodePixels, type Observation, type Space } from './observation';
import { resolveAction } from './resolve-action';

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

declare global {
  // The in-page runtime, as seen from page.evaluate callbacks.
  var __arcade: import('../runtime/protocol').ArcadeRuntimeApi;
}

const readText = (file: string) => readFileSync(file, 'utf8');

/**
 * One game in one browser page, with Gymnasium's reset/step/close semantics. Every episode
 * gets a fresh browser context (no cookies, storage or caches carried over), the virtual-time
 * runtime and the verifier injected before the game's own scripts, and a seed.
 */
export class ArcadeEnv {
  readonly game: CatalogEntry;
  readonly options: EnvOptions;
  readonly observationKinds: ReadonlySet<ObservationKind>;
  readonly maxSteps: number;
  readonly msPerStep: number;
  private readonly seeds: SeededRandom;
  private readonly ownsBrowser: boolean;
  private browser: Browser | null = null;
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  private initScript: string | null = null;
  private closed = false;

  private episode: {
    seed: number;
    step: number;
    score: number;
    done: boolean;
    actions: Action[];
    steps: StepRecord[];
    totalReward: number;
    terminated: boolean;
    truncated: boolean;
  } | null = null;

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
    };
    if (!this.initScript) {
      this.initScript = `${readText(RUNTIME_BUNDLE_PATH)}\n;${readText(path.join(PUBLIC_DIR, this.game.verifierPath))}`;
    }
    return `globalThis.__ARCADE_CONFIG__ = ${JSON.stringify(config)};\n${this.initScript}`;
  }

  async reset(opts: { seed?: number } = {}): Promise<ResetResult> {
    this.assertOpen();
    const seed = opts.seed ?? this.nextSeed();
    if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) {
      throw new ArcadeGymError('INVALID_OPTIONS', `reset: seed must be an integer in [0, 2^32), got ${seed}`);
    }
    if (!this.browser) this.browser = await acquireSharedBrowser();
    const old = this.context;
    this.context = null;
    this.page = null;
    if (old) await old.close().catch(() => undefined);

    const m = this.manifest;
    const context = await this.browser.newContext({
      viewport: { width: m.canvas.width, height: m.canvas.height },
      deviceScaleFactor: this.options.deviceScaleFactor,
      serviceWorkers: 'block',
    });
    this.context = context;
    await serveFiles(context, [{ prefix: '/', dir: PUBLIC_DIR }]);
    await context.addInitScript({ content: this.buildInitScript(seed) });
    const page = await context.newPage();
    this.page = page;
    await page.goto(`${GAME_ORIGIN}${this.game.basePath}${m.entry}`, { waitUntil: 'load' });
    const hasRuntime = await page.evaluate(() => typeof globalThis.__arcade === 'object');
    if (!hasRuntime) throw new ArcadeGymError('RUNTIME_MISSING', `The arcade runtime did not start on ${m.id}'s page`);

    // One animation frame of virtual time, so the first observation shows the first drawn frame.
    const first = await this.callPage((req) => globalThis.__arcade.step(req), { action: null, ms: FRAME_MS, obs: this.observationRequest(false) });
    this.episode = { seed, step: 0, score: first.state.score, done: false, actions: [], steps: [], totalReward: 0, terminated: false, truncated: false };
    return { observation: await this.toObservation(first), info: { seed, state: first.state, virtualTimeMs: first.virtualTimeMs } };
  }

  async step(action: Action | number): Promise<StepResult> {
    this.assertOpen();
    const ep = this.episode;
    if (!ep || !this.page) throw new ArcadeGymError('RESET_NEEDED', 'step() called before reset(): call reset() to start an episode');
    if (ep.done) {
      throw new ArcadeGymError('EPISODE_ENDED', `The episode has ended (${ep.terminated ? 'terminated' : 'truncated'} after ${ep.step} steps): call reset() before stepping again`);
    }
    const { action: recorded, gui } = resolveAction(this.manifest, action);
    // The final frame hash is only needed when the budget runs out on this step; a terminal
    // step asks for it separately (once per episode) since termination is not known ahead.
    const lastByBudget = ep.step + 1 >= this.maxSteps;
    const r = await this.callPage((req) => globalThis.__arcade.step(req), { action: gui, ms: this.msPerStep, obs: this.observationRequest(lastByBudget) });

    const stepIndex = ep.step;
    ep.step++;
    const terminated = r.state.gameOver === true;
    const truncated = !terminated && ep.step >= this.maxSteps;
    const shaping = this.options.shaping;
    const reward = r.state.score - ep.score + shaping.perStep + (terminated ? shaping.terminal : 0);
    ep.score = r.state.score;
    ep.totalReward += reward;
    ep.terminated = terminated;
    ep.truncated = truncated;
    ep.done = terminated || truncated;

    const info: StepInfo = { step: ep.step, score: r.state.score, state: r.state, virtualTimeMs: r.virtualTimeMs };
    if (r.errors.length) info.gameErrors = r.errors;
    if (this.options.record) {
      ep.actions.push(recorded);
      ep.steps.push({
        schemaVersion: SCHEMA_VERSION,
        kind: 'step',
        ...this.identity(),
        step: stepIndex,
        action: recorded,
        reward,
        score: r.state.score,
        terminated,
        truncated,
        virtualTimeMs: r.virtualTimeMs,
        info: { state: r.state },
      });
    }
    if (ep.done && this.options.record) {
      const hash = r.frameHash ?? (await this.callPage(() => globalThis.__arcade.frameHash(), null));
      info.episode = await this.episodeRecord(hash);
    }
    return { observation: await this.toObservation(r), reward, terminated, truncated, info };
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
    const ep = this.episode!;
    return {
      schemaVersion: SCHEMA_VERSION,
      kind: 'episode',
      ...this.identity(),
      seed: ep.seed,
      stepBudget: this.maxSteps,
      msPerStep: this.msPerStep,
      viewport: { width: this.manifest.canvas.width, height: this.manifest.canvas.height },
      deviceScaleFactor: this.options.deviceScaleFactor,
      browser: { name: 'chromium', version: this.browser!.version() },
      shaping: this.options.shaping,
      actions: [...ep.actions],
      steps: [...ep.steps],
      totals: { score: ep.score, reward: ep.totalReward, length: ep.step, terminated: ep.terminated, truncated: ep.truncated },
      finalFrameHash,
    };
  }

  /** Runs one function in the page, bounded by the step timeout (page.evaluate has none). */
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
      const run = page.evaluate as (f: (a: A) => R, a: A) => Promise<R>;
      return await Promise.race([run.call(page, fn, arg), timeout]);
    } catch (e) {
      if (e instanceof ArcadeGymError) throw e;
      const message = e instanceof Error ? e.message : String(e);
      if (/crash/i.test(message)) throw new ArcadeGymError('PAGE_CRASHED', `${this.manifest.id}: the page crashed (${message})`);
      throw e;
    } finally {
      clearTimeout(timer);
    }
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
      obs.screenshot = await this.page!.screenshot({ type: s.type, quality: s.type === 'jpeg' ? s.quality ?? 80 : undefined });
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
