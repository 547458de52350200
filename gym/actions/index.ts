import { z } from 'zod';
import type { MacroController, MacroPlanner } from '../core/wrappers/macro-action';
import type { GameManifest } from '../schema/manifest';
import { placementAfterstates } from './placement-afterstates';
import { placementPlanner } from './placement';

export { placementPlanner, PLACEMENT_ROTATIONS } from './placement';
export { placementAfterstates, AFTERSTATE_FEATURES, AFTERSTATE_SCALE, type AfterstateFeature } from './placement-afterstates';

/**
 * What a trained policy's actions are: the game's own preset (one key per step), or a set of
 * macro decisions carried out with those keys (gym/core/wrappers/macro-action.ts). A training
 * option (games/<id>/train.json `training.actions`), written to config.json, metrics.jsonl's
 * config line and the checkpoint header, so evaluation plays a policy with the actions it
 * was trained with.
 */
export const ActionSet = z.discriminatedUnion(
  'kind',
  [
    /** The game's preset: one decision = one key (the default). */
    z.strictObject({ kind: z.literal('preset') }),
    /**
     * Tetris placements: 4 rotations × 10 columns, then a hard drop (placement.ts). `observation`
     * 'afterstates': the policy reads what each placement leaves behind (placement-afterstates.ts,
     * [40 × features]) instead of the verifier's features ('verifier', the default).
     */
    z.strictObject({
      kind: z.literal('placement'),
      observation: z.enum(['verifier', 'afterstates'], { error: 'actions.observation must be verifier or afterstates' }).optional(),
    }),
  ],
  {
    error: (i) =>
      typeof i.input === 'object' && i.input !== null
        ? `actions.kind must be preset or placement, got ${JSON.stringify((i.input as { kind?: unknown }).kind ?? null)}`
        : `actions must be {"kind": "preset"} or {"kind": "placement"}, got ${JSON.stringify(i.input)}`,
  },
);
export type ActionSet = z.infer<typeof ActionSet>;

/** The planner an action set needs on a game, or null for the game's own preset. */
export function macroPlannerFor(actions: ActionSet | undefined, manifest: GameManifest): MacroPlanner<number> | null {
  if (!actions || actions.kind === 'preset') return null;
  const planner = placementPlanner(manifest);
  return actions.observation === 'afterstates' ? { ...planner, decisionFeatures: placementAfterstates() } : planner;
}

/** How many actions a policy over this action set has. */
export function numPolicyActions(actions: ActionSet | undefined, manifest: GameManifest): number {
  return macroPlannerFor(actions, manifest)?.numDecisions ?? manifest.preset.length;
}

/**
 * The macro wrapper's loop, one primitive per call, for agents that are asked for one action per
 * step (evaluation's runEpisode): the same controller sees the same infos in the same order as
 * under MacroAction, so a policy plays exactly as it was trained.
 */
export class MacroDriver {
  private controller: MacroController<number> | null = null;

  constructor(readonly planner: MacroPlanner<number>) {}

  /** At the start of each episode. */
  reset(): void {
    this.controller = null;
  }

  /** The primitive action for the step after `info`; `decide` is asked for a new decision when the last one is done. */
  async next(info: unknown, decide: () => Promise<number>): Promise<number> {
    const ongoing = this.controller?.next(info) ?? null;
    if (ongoing !== null) return ongoing;
    this.controller = this.planner.start(await decide(), info);
    const first = this.controller.next(info);
    if (first === null) throw new Error('macro decision gave no primitive action');
    return first;
  }
}
