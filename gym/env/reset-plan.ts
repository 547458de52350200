import type { ObservationRequest, PageStepRequest } from '../runtime/protocol';
import type { GameManifest } from '../schema/manifest';
import { RESET_ADVANCE_MS } from './episode-account';

const STATE_ONLY: ObservationRequest = { state: true, vector: false, pixels: null, frameHash: false };

/**
 * What a reset runs in a freshly loaded page, shared by the gym and the site's player so both
 * start an episode on the same frame: the manifest's start actions (dispatched at the same
 * virtual instant; a `wait` lets one frame pass), then `resetFrames` frames. The last
 * request's reading is the reset's observation and the episode's starting score. With the
 * defaults (no start actions, one frame) it is the single one-frame advance resets always made.
 */
export function resetPlan(manifest: Pick<GameManifest, 'startActions' | 'resetFrames'>, obs: ObservationRequest): PageStepRequest[] {
  const start = manifest.startActions.map(
    (a): PageStepRequest => (a.type === 'wait' ? { action: null, ms: RESET_ADVANCE_MS, obs: STATE_ONLY } : { action: a, ms: 0, obs: STATE_ONLY }),
  );
  return [...start, { action: null, ms: RESET_ADVANCE_MS * manifest.resetFrames, obs }];
}
