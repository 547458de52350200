import type { Space } from '../core/spaces';
import type { Env, ResetOptions, ResetResult, StepResult } from '../core/env';
import type { CatalogEntry } from '../catalog-schema';
import type { ResetInfo, StepInfo } from '../env/env';
import { EpisodeAccount } from '../env/episode-account';
import type { Observation } from '../env/observation';
import { resetPlan } from '../env/reset-plan';
import { gameIdentity, observationRequest, pageObservation, type PageReading, resetInfo, stepInfo } from '../env/page-result';
import { resolveAction } from '../env/resolve-action';
import { ArcadeGymError } from '../errors';
import { SeededRandom } from '../random/seeded-random';
import type { ArcadeRuntimeApi, ObservationRequest } from '../runtime/protocol';
import type { Action } from '../schema/action';
import type { RewardShaping } from '../schema/records';

const LOAD_TIMEOUT_MS = 20_000;

export interface FrameEnvOptions {
  /** The env's own seed: its first reset without a seed uses it, later ones continue its sequence (as ArcadeEnv). */
  seed: number;
  /** Default: the manifest's step budget and ms per step, no shaping (the gym's defaults). */
  maxSteps?: number;
  msPerStep?: number;
  shaping?: RewardShaping;
  /** Whether the frame draws (only a watched instance needs to: painting changes no state). */
  paint?: boolean;
  /** Keep step records (evaluation: the episode record is submitted); training keeps none. */
  keepRecords?: boolean;
}

/**
 * A gym/core Env over one same-origin iframe of the page it runs in: the game page with the
 * in-page runtime configured from its URL (as the site's player and `?arcade-seed=` pages are),
 * reset by reloading the frame, stepped through `__arcade.step`. Reset plan, step accounting,
 * seeds and infos are the gym's own (gym/env), so its episodes are the headless gym's, step for step.
 */
export class FrameEnv implements Env<Observation, Action | number, ResetInfo, StepInfo> {
  readonly observationSpace: Space;
  readonly actionSpace: Space;
  readonly maxSteps: number;
  readonly msPerStep: number;
  private readonly shaping: RewardShaping;
  private seeds: SeededRandom;
  private runtime: ArcadeRuntimeApi | null = null;
  private episode: EpisodeAccount | null = null;
  private loads = 0;
  private paint: boolean;
  /** What a trainer reads: the verifier's state and its feature vector (pixels stay in the gym). */
  private readonly reading: PageReading;
  private readonly observe: ObservationRequest;

  constructor(
    readonly frame: HTMLIFrameElement,
    readonly game: CatalogEntry,
    private readonly options: FrameEnvOptions,
  ) {
    const m = game.manifest;
    this.maxSteps = options.maxSteps ?? m.stepBudget;
    this.msPerStep = options.msPerStep ?? m.msPerStep;
    this.shaping = options.shaping ?? { perStep: 0, terminal: 0 };
    this.seeds = new SeededRandom(options.seed);
    this.reading = { kinds: new Set(['state', 'vector']), pixels: null, actionMask: game.actionMask };
    this.observe = observationRequest(this.reading, false);
    this.paint = options.paint ?? false;
    this.actionSpace = { type: 'Discrete', n: m.preset.length, names: m.preset.map((p) => p.name) };
    this.observationSpace = {
      type: 'Dict',
      spaces: {
        state: { type: 'Json', description: `verifier state of ${m.id}` },
        vector: { type: 'Box', shape: [game.featureNames.length], dtype: 'float32', low: -Infinity, high: Infinity, names: game.featureNames },
      },
    };
    frame.width = String(m.canvas.width);
    frame.height = String(m.canvas.height);
  }

  /** The running episode's accounting (score, length, records). */
  get account(): EpisodeAccount | null {
    return this.episode;
  }

  /** Turns drawing on for the instance someone watches, off for the rest. */
  setPaint(on: boolean): void {
    this.paint = on;
    this.runtime?.setPaint(on);
  }

  async reset(opts: ResetOptions = {}): Promise<ResetResult<Observation, ResetInfo>> {
    // As ArcadeEnv: the first reset uses the env's seed, later ones continue a seeded sequence.
    const seed = opts.seed ?? (this.loads === 0 ? this.options.seed : this.seeds.nextUint32());
    if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1)
      throw new ArcadeGymError('INVALID_OPTIONS', `reset: seed must be an integer in [0, 2^32), got ${seed}`);
    // As gymnasium.Env.reset(seed=…): a seed reseeds the sequence the later unseeded resets draw from.
    if (opts.seed !== undefined) this.seeds = new SeededRandom(opts.seed);
    this.loads++;
    const runtime = await this.load(seed);
    const first = resetPlan(this.game.manifest, this.observe)
      .map((req) => runtime.step(req))
      .at(-1)!;
    this.episode = new EpisodeAccount(
      {
        identity: gameIdentity(this.game),
        seed,
        stepBudget: this.maxSteps,
        msPerStep: this.msPerStep,
        shaping: this.shaping,
      },
      first.state,
      this.options.keepRecords ?? false,
    );
    return { observation: pageObservation(this.reading, first), info: resetInfo(seed, first) };
  }

  step(action: Action | number): StepResult<Observation, StepInfo> {
    const runtime = this.runtime;
    const ep = this.episode;
    if (!runtime || !ep) throw new ArcadeGymError('RESET_NEEDED', 'step() called before reset(): call reset() first');
    if (ep.done) throw new ArcadeGymError('RESET_NEEDED', 'step() after the episode ended: call reset() first');
    const { action: recorded, gui } = resolveAction(this.game.manifest, action);
    const r = runtime.step({ action: gui, ms: this.msPerStep, obs: this.observe });
    const { reward, terminated, truncated } = ep.record(recorded, r.state, r.virtualTimeMs);
    const info: StepInfo = stepInfo(ep.length, r);
    if (ep.done) {
      const win = this.frame.contentWindow;
      info.episode = ep.episodeRecord({
        viewport: { width: this.game.manifest.canvas.width, height: this.game.manifest.canvas.height },
        deviceScaleFactor: win?.devicePixelRatio || 1,
        browser: { name: 'browser', version: win?.navigator.userAgent ?? 'unknown' },
        finalFrameHash: runtime.frameHash(),
      });
    }
    return { observation: pageObservation(this.reading, r), reward, terminated, truncated, info };
  }

  /** Loads the game page with `seed` in the frame; resolves with its runtime once the document has loaded. */
  private async load(seed: number): Promise<ArcadeRuntimeApi> {
    const m = this.game.manifest;
    // Pointer events go where the gym sends them (RuntimeConfig.pointerTarget), so episodes match the gym's.
    const pointer = m.renderer !== 'dom' && !this.game.external ? '&arcade-pointer=game-element' : '';
    const url = `${this.game.basePath}${m.entry}?arcade-seed=${seed}&arcade-width=${m.canvas.width}&arcade-height=${m.canvas.height}${pointer}`;
    this.runtime = null;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ArcadeGymError('STEP_TIMEOUT', `${m.id} did not load within ${LOAD_TIMEOUT_MS / 1000} s`)), LOAD_TIMEOUT_MS);
      this.frame.addEventListener(
        'load',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
      // A new URL each time (the seed alone may repeat): the frame always loads a fresh document.
      this.frame.src = `${url}&arcade-load=${this.loads}`;
    });
    const runtime = (this.frame.contentWindow as (Window & { __arcade?: ArcadeRuntimeApi }) | null)?.__arcade;
    if (!runtime) throw new ArcadeGymError('RUNTIME_MISSING', `${m.id}: the arcade runtime is not running in the game page`);
    runtime.setPaint(this.paint);
    this.runtime = runtime;
    return runtime;
  }

  close(): void {
    this.runtime = null;
    this.episode = null;
    this.frame.src = 'about:blank';
  }
}
