import type { CatalogEntry, Action, RewardShaping, VerifierState } from '../../gym/schema';
import { EpisodeAccount, type StepOutcome, resetPlan, resolveAction, type ArcadeRuntimeApi, type ObservationRequest, RUNTIME_VERSION } from '../../gym/episode';
import type { RenderingSettings } from './rendering-settings';

/**
 * Runs a game in an iframe of the visitor's browser under the gym's rules: the same build,
 * runtime, seed and step accounting as the headless gym, so replays and human play produce
 * the same records an agent's episode would.
 */

const STATE_ONLY: ObservationRequest = { state: true, vector: false, pixels: null, frameHash: false };

export interface PlayerEpisode {
  seed: number;
  stepBudget: number;
  msPerStep: number;
  shaping: RewardShaping;
}

export class GamePlayer {
  private runtime: ArcadeRuntimeApi | null = null;
  private account: EpisodeAccount | null = null;
  initialState: VerifierState | null = null;

  constructor(
    private readonly iframe: HTMLIFrameElement,
    readonly game: CatalogEntry,
  ) {}

  get episode(): EpisodeAccount {
    if (!this.account) throw new Error('GamePlayer: load() first');
    return this.account;
  }

  /** (Re)loads the game page with a seed; resolves once the first frame is drawn. */
  async load(ep: PlayerEpisode): Promise<VerifierState> {
    const m = this.game.manifest;
    // Pointer events go where the gym sends them (see RuntimeConfig.pointerTarget), so replays match.
    const pointer = m.renderer !== 'dom' && !this.game.external ? '&arcade-pointer=game-element' : '';
    const url = `${this.game.basePath}${m.entry}?arcade-seed=${ep.seed}&arcade-width=${m.canvas.width}&arcade-height=${m.canvas.height}${pointer}&t=${Date.now()}`;
    this.runtime = null;
    await new Promise<void>((resolve, reject) => {
      const onLoad = () => {
        this.iframe.removeEventListener('load', onLoad);
        resolve();
      };
      this.iframe.addEventListener('load', onLoad);
      this.iframe.src = url;
      setTimeout(() => reject(new Error(`${m.id} did not load within 20 s`)), 20_000);
    });
    const win = this.iframe.contentWindow as (Window & { __arcade?: ArcadeRuntimeApi }) | null;
    if (!win?.__arcade) throw new Error(`${m.id}: the arcade runtime is not running in the game page`);
    this.runtime = win.__arcade;
    // The gym's reset, step for step (start actions, first frames), so records match.
    const runtime = this.runtime;
    const first = resetPlan(m, STATE_ONLY)
      .map((req) => runtime.step(req))
      .at(-1)!;
    this.initialState = first.state;
    this.account = new EpisodeAccount(
      {
        identity: { gameId: m.id, gameVersion: m.version, verifierChecksum: this.game.verifierChecksum, runtimeVersion: RUNTIME_VERSION },
        seed: ep.seed,
        stepBudget: ep.stepBudget,
        msPerStep: ep.msPerStep,
        shaping: ep.shaping,
      },
      first.state,
    );
    return first.state;
  }

  step(action: Action): StepOutcome {
    if (!this.runtime || !this.account) throw new Error('GamePlayer: load() first');
    const { action: recorded, gui } = resolveAction(this.game.manifest, action);
    const r = this.runtime.step({ action: gui, ms: this.account.settings.msPerStep, obs: STATE_ONLY });
    return this.account.record(recorded, r.state, r.virtualTimeMs);
  }

  /** What the game page really has, read from inside it (not what the page meant to give it). */
  renderingSettings(): RenderingSettings {
    const win = this.iframe.contentWindow;
    if (!win) throw new Error('GamePlayer: load() first');
    return {
      viewport: { width: win.innerWidth, height: win.innerHeight },
      deviceScaleFactor: win.devicePixelRatio || 1,
      browser: { name: 'browser', version: win.navigator.userAgent },
    };
  }

  frameHash(): string {
    if (!this.runtime) throw new Error('GamePlayer: load() first');
    return this.runtime.frameHash();
  }
}
