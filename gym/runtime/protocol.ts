import type { GuiAction } from '../schema/action';
import type { VerifierState } from '../schema/records';

/** Shared between the in-page runtime and the driver: what crosses `page.evaluate`. */

export const RUNTIME_VERSION = '1.0.0';

export interface RuntimeConfig {
  seed: number;
  canvas?: { width: number; height: number; selector?: string };
  epochMs?: number;
  /**
   * false: the page is not painted (the gym's default when nobody watches). Game logic, canvas
   * drawing and pixel reads are unaffected; the compositor simply has nothing to draw, which
   * removes most of a step's cost.
   */
  paint?: boolean;
  /**
   * 'native' leaves the page's clock alone (only randomness is seeded): for comparing against
   * other clocks, such as Playwright's page.clock, in benchmarks.
   */
  time?: 'virtual' | 'native';
  /**
   * Where pointer events go: 'hit-test' (the element under the point, as a browser does) or
   * 'game-element' (straight to the game's canvas; for canvas games with nothing drawn over it).
   */
  pointerTarget?: 'hit-test' | 'game-element';
  /**
   * true: steps run many to a call rasterise each 2D canvas frame as it comes (canvas-raster.ts).
   * For the gym's browsers, whose canvases are rasterised in software, where that is a flush; in
   * a browser that rasterises on its GPU it would be a readback per frame, so visible pages leave it off.
   */
  rasterEachStep?: boolean;
}

export interface ObservationRequest {
  state: boolean;
  vector: boolean;
  pixels: { width: number; height: number; grayscale: boolean } | null;
  frameHash: boolean;
  /** Also read the verifier's action mask, where it defines one (absent: no). */
  actionMask?: boolean;
}

export interface PageStepResult {
  state: VerifierState;
  vector: number[] | null;
  /** base64 of width×height×channels bytes. */
  pixels: string | null;
  frameHash: string | null;
  /**
   * One entry per preset action, 1 where the action may change the game and 0 where the game
   * would ignore it (the verifier's `actionMask`); absent when not asked for or not defined.
   */
  actionMask?: number[];
  virtualTimeMs: number;
  /** Errors thrown by game callbacks since the last step. */
  errors: string[];
}

export interface PageStepRequest {
  action: GuiAction | null;
  ms: number;
  obs: ObservationRequest;
}

export interface ArcadeRuntimeApi {
  version: string;
  seed: number;
  now(): number;
  advance(ms: number): void;
  dispatch(action: GuiAction): void;
  step(req: PageStepRequest): PageStepResult;
  observe(obs: ObservationRequest): PageStepResult;
  frameHash(): string;
  gameElement(): Element;
  setPaint(on: boolean): void;
}
