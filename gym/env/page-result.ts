import type { CatalogEntry } from '../catalog-schema';
import { RUNTIME_VERSION, type ObservationRequest, type PageStepResult } from '../runtime/protocol';
import type { GameIdentity } from './episode-account';
import type { Observation } from './observation';
import type { ObservationKind, PixelOptions } from './options';

/**
 * The one translation between the in-page runtime and a Gymnasium step, shared by the single env
 * (gym/env/env.ts), the batched vector env (gym/batch) and the in-page trainer's frames
 * (gym/browser-train): what to ask the page for, and how its reading becomes an observation and
 * an info. What each of them adds (screenshots, recovery events, records) stays with it.
 * Browser-safe.
 */

/** What an env reads from the page at every step. */
export interface PageReading {
  kinds: ReadonlySet<ObservationKind>;
  /** Pixels the page renders itself (null: none, or a DOM game's, which are screenshots taken outside the page). */
  pixels: PixelOptions | null;
  /** The game's verifier defines an action mask (the catalog's `actionMask`). */
  actionMask: boolean;
}

/** The request a step sends; the final frame hash only where the caller knows the episode ends with it. */
export function observationRequest(reading: PageReading, withFrameHash: boolean): ObservationRequest {
  return {
    state: true,
    vector: reading.kinds.has('vector'),
    pixels: reading.kinds.has('pixels') ? reading.pixels : null,
    frameHash: withFrameHash,
    actionMask: reading.actionMask,
  };
}

/** The observation kinds the page itself returns: its state, feature vector and pixels (screenshots are the caller's). */
export function pageObservation(reading: PageReading, r: PageStepResult): Observation {
  const obs: Observation = {};
  if (reading.kinds.has('state')) obs.state = r.state;
  if (reading.kinds.has('vector') && r.vector) obs.vector = Float32Array.from(r.vector);
  if (reading.kinds.has('pixels') && r.pixels && reading.pixels) {
    const p = reading.pixels;
    obs.pixels = { width: p.width, height: p.height, channels: p.grayscale ? 1 : 3, data: decodeBase64(r.pixels) };
  }
  return obs;
}

/** The game build an episode's record names. */
export function gameIdentity(game: Pick<CatalogEntry, 'manifest' | 'verifierChecksum'>): GameIdentity {
  return { gameId: game.manifest.id, gameVersion: game.manifest.version, verifierChecksum: game.verifierChecksum, runtimeVersion: RUNTIME_VERSION };
}

/** A reset's info: the seed, the first reading and its action mask. */
export function resetInfo(seed: number, first: PageStepResult): { seed: number; state: PageStepResult['state']; virtualTimeMs: number; actionMask?: number[] } {
  return withActionMask({ seed, state: first.state, virtualTimeMs: first.virtualTimeMs }, first);
}

/** A step's info after `step` steps of the episode: score, reading, action mask and the game's own errors. */
export function stepInfo(
  step: number,
  r: PageStepResult,
): { step: number; score: number; state: PageStepResult['state']; virtualTimeMs: number; actionMask?: number[]; gameErrors?: string[] } {
  const info: ReturnType<typeof stepInfo> = withActionMask({ step, score: r.state.score, state: r.state, virtualTimeMs: r.virtualTimeMs }, r);
  if (r.errors.length) info.gameErrors = r.errors;
  return info;
}

/** The info's `actionMask`, where the reading has one (games whose verifier defines it). */
export function withActionMask<I extends object>(info: I, r: Pick<PageStepResult, 'actionMask'>): I & { actionMask?: number[] } {
  return r.actionMask ? { ...info, actionMask: r.actionMask } : info;
}

function decodeBase64(b64: string): Uint8Array {
  if (typeof Buffer !== 'undefined') return new Uint8Array(Buffer.from(b64, 'base64'));
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}
