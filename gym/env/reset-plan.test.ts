import { describe, expect, it } from 'vitest';
import { GameManifest } from '../schema/manifest';
import type { ObservationRequest } from '../runtime/protocol';
import { RESET_ADVANCE_MS } from './episode-account';
import { resetPlan } from './reset-plan';

const OBS: ObservationRequest = { state: true, vector: true, pixels: null, frameHash: false };
const manifest = (extra: object) =>
  GameManifest.parse({
    id: 'x',
    title: 'X',
    version: '1.0.0',
    description: 'd',
    controls: 'c',
    renderer: '2d',
    canvas: { width: 100, height: 100 },
    msPerStep: 100,
    preset: [{ name: 'wait', action: { type: 'wait' } }],
    humanReference: { score: 1, status: 'provisional', provenance: 'p', stepBudget: 100 },
    ...extra,
  });

describe('resetPlan', () => {
  it('by default is the single one-frame advance every reset made before start actions existed', () => {
    const m = manifest({});
    expect(m.startActions).toEqual([]);
    expect(m.resetFrames).toBe(1);
    expect(resetPlan(m, OBS)).toEqual([{ action: null, ms: RESET_ADVANCE_MS, obs: OBS }]);
  });

  it('dispatches start actions at one instant, lets a frame pass for each wait, then advances resetFrames frames', () => {
    const click = { type: 'click', x: 5, y: 6 } as const;
    const key = { type: 'key', key: 'Enter' } as const;
    const plan = resetPlan(manifest({ startActions: [{ type: 'wait' }, click, key], resetFrames: 3 }), OBS);
    expect(plan.map((r) => [r.action, r.ms])).toEqual([
      [null, RESET_ADVANCE_MS],
      [click, 0],
      [key, 0],
      [null, RESET_ADVANCE_MS * 3],
    ]);
    // Only the last reading is the observation the caller asked for.
    expect(plan.at(-1)!.obs).toBe(OBS);
    expect(plan.slice(0, -1).every((r) => r.obs.vector === false)).toBe(true);
  });

  it('the manifest refuses start actions that are not GUI actions and reset frames out of range, naming the field', () => {
    const bad = GameManifest.safeParse({ ...manifest({}), startActions: [{ type: 'tap', x: 1 }], resetFrames: 0 });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.'))).toEqual(['startActions.0.type', 'resetFrames']);
  });
});
