import { DEFAULT_EPOCH_MS, VirtualClock } from './virtual-clock';
import { SeededRandom } from '../random/seeded-random';
import { installVirtualTime } from './install-time';
import { installVirtualStorage } from './virtual-storage';
import { installCanvasRaster } from './canvas-raster';
import { InputDispatcher } from './dispatch-input';
import { VirtualAnimations } from './virtual-animations';
import { frameHash, readPixels, textHash } from './observe-pixels';
import { RUNTIME_VERSION, type ArcadeRuntimeApi, type ObservationRequest, type PageStepRequest, type PageStepResult, type RuntimeConfig } from './protocol';
import type { Verifier } from '../../verifiers/define';
import type { VerifierState } from '../schema/records';

/**
 * Entry of the in-page runtime (bundled to public/runtime/arcade-runtime.js). Config comes
 * from `__ARCADE_CONFIG__` (set by the gym's init script) or from `?arcade-seed=` in the URL
 * (a visible page); with neither, the page runs in real time as an ordinary game.
 */

type ArcadeGlobals = typeof globalThis & {
  __ARCADE_CONFIG__?: RuntimeConfig;
  __arcade?: ArcadeRuntimeApi;
  __arcadeVerifier?: Verifier;
  __arcadeRegisterVerifier?: (v: Verifier) => void;
};

function readConfig(g: ArcadeGlobals): RuntimeConfig | null {
  if (g.__ARCADE_CONFIG__) return g.__ARCADE_CONFIG__;
  const params = new URLSearchParams(g.location?.search ?? '');
  const seed = params.get('arcade-seed');
  if (seed === null) return null;
  const width = Number(params.get('arcade-width') ?? NaN);
  const height = Number(params.get('arcade-height') ?? NaN);
  return {
    seed: Number(seed) >>> 0,
    canvas: Number.isFinite(width) && Number.isFinite(height) ? { width, height } : undefined,
    pointerTarget: params.get('arcade-pointer') === 'game-element' ? 'game-element' : 'hit-test',
  };
}

/** Hides the whole page from the compositor while keeping layout, so hit-testing still works. */
function createPaintSwitch(win: Window & typeof globalThis, initial: boolean) {
  let sheet: CSSStyleSheet | null = null;
  let on = true;
  const set = (want: boolean) => {
    on = want;
    if (!want && !sheet) {
      sheet = new win.CSSStyleSheet();
      sheet.replaceSync('html { visibility: hidden !important; }');
      win.document.adoptedStyleSheets = [...win.document.adoptedStyleSheets, sheet];
    }
    if (sheet) sheet.disabled = want;
  };
  set(initial);
  return {
    set,
    // Hidden elements are skipped by elementFromPoint; show them for the instant of the test
    // (within one task, so nothing is painted).
    whilePainted<T>(fn: () => T): T {
      if (on || !sheet) return fn();
      sheet.disabled = true;
      try {
        return fn();
      } finally {
        sheet.disabled = false;
      }
    },
  };
}

function install(g: ArcadeGlobals, config: RuntimeConfig): ArcadeRuntimeApi {
  const errors: string[] = [];
  const clock = new VirtualClock(config.epochMs ?? DEFAULT_EPOCH_MS, (e) => {
    errors.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    console.error(e);
  });
  const rng = new SeededRandom(config.seed);
  const win = g as unknown as Window & typeof globalThis;
  let animations: VirtualAnimations | null = null;
  if (config.time === 'native') g.Math.random = () => rng.next();
  else {
    installVirtualTime(g, clock, rng);
    // CSS transitions/animations follow the real clock unless the runtime drives them.
    const anims = new VirtualAnimations(win);
    animations = anims;
    clock.addFrameHook((now) => anims.tick(now));
  }
  // Every episode starts from empty storage, whatever the tab or browser context saw before.
  installVirtualStorage(win, config.time === 'native' ? () => Date.now() : () => clock.wallNow());
  // Steps run many to a call rasterise each frame as it comes, as steps run one per call do.
  const raster = config.rasterEachStep ? installCanvasRaster(win) : null;
  /** Advances virtual time; animations started after the last frame are taken over before real time can move them. */
  const advance = (ms: number) => {
    clock.advance(ms);
    animations?.tick(clock.now());
  };
  const gameElement = (): Element => {
    const doc = win.document;
    if (config.canvas?.selector) {
      const el = doc.querySelector(config.canvas.selector);
      if (el) return el;
    }
    let best: HTMLCanvasElement | null = null;
    for (const c of Array.from(doc.getElementsByTagName('canvas'))) {
      if (!best || c.width * c.height > best.width * best.height) best = c;
    }
    return best ?? doc.body ?? doc.documentElement;
  };
  const paint = createPaintSwitch(win, config.paint ?? true);
  const input = new InputDispatcher(
    win,
    {
      element: gameElement,
      // Canvas games take pointer input on their canvas: skipping the hit test saves a style
      // and layout pass per event while the page is unpainted.
      hitTest: (x, y) => (config.pointerTarget === 'game-element' ? null : paint.whilePainted(() => win.document.elementFromPoint(x, y))),
      size: () => {
        if (config.canvas) return config.canvas;
        const r = gameElement().getBoundingClientRect();
        return { width: r.width || 1, height: r.height || 1 };
      },
    },
    clock,
  );

  const verifier = (): Verifier => {
    const v = g.__arcadeVerifier;
    if (!v) throw new Error('arcade runtime: no verifier registered on this page');
    return v;
  };

  const hashFrame = (): string => {
    const el = gameElement();
    if (el instanceof win.HTMLCanvasElement) return frameHash(win.document, el);
    // A DOM game's frame is its markup (classes, attributes, text): the same whether or not the
    // page is painted, where innerText would be empty in an unpainted page.
    return textHash(el.outerHTML);
  };

  const observe = (obs: ObservationRequest): PageStepResult => {
    const v = verifier();
    const state = (v.read(win) ?? { score: 0, gameOver: false }) as VerifierState;
    let pixels: string | null = null;
    if (obs.pixels) {
      const el = gameElement();
      if (!(el instanceof win.HTMLCanvasElement)) throw new Error('arcade runtime: pixel observations need a canvas game; use screenshots for DOM games');
      pixels = readPixels(win.document, el, obs.pixels);
    }
    const result: PageStepResult = {
      state,
      vector: obs.vector ? v.features.encode(state) : null,
      pixels,
      frameHash: obs.frameHash ? hashFrame() : null,
      virtualTimeMs: clock.now(),
      errors: errors.splice(0),
    };
    if (obs.actionMask && v.actionMask) result.actionMask = v.actionMask(state);
    return result;
  };

  const api: ArcadeRuntimeApi = {
    version: RUNTIME_VERSION,
    seed: config.seed,
    now: () => clock.now(),
    advance,
    dispatch: (action) => input.dispatch(action),
    step(req: PageStepRequest): PageStepResult {
      raster?.beforeStep();
      if (req.action) input.dispatch(req.action);
      advance(req.ms);
      return observe(req.obs);
    },
    observe,
    frameHash: hashFrame,
    gameElement,
    setPaint: (on) => paint.set(on),
  };
  return api;
}

const g = globalThis as ArcadeGlobals;
if (!g.__arcadeRegisterVerifier) {
  g.__arcadeRegisterVerifier = (v) => {
    g.__arcadeVerifier = v;
  };
}
if (!g.__arcade) {
  const config = readConfig(g);
  if (config) g.__arcade = install(g, config);
}
