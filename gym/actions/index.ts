import { z } from 'zod';
import type { GameManifest } from '../schema/manifest';
import { placementAfterstates } from './placement-afterstates';
import { placementPlanner } from './placement';
import { blockDropPlanner } from './block-drop';
import { blockDropAfterstates } from './block-drop-afterstates';
import { slideAfterstates, type SlideDirection } from './slide-afterstates';
import { snakeAfterstates, type SnakeKey } from './snake-afterstates';
import { mazeAfterstates, type MazeKey } from './maze-afterstates';
import { platformerAfterstates, type PlatformerKey } from './platformer-afterstates';
import { MacroAction, type DecisionFeatures, type MacroController, type MacroPlanner } from '../core/wrappers/macro-action';
import { DecisionObservation, VectorDecisionObservation } from '../core/wrappers/decision-observation';
import type { Env } from '../core/env';
import type { VectorEnv } from '../core/vector-env';
import type { Observation } from '../env/observation';
import { ArcadeGymError } from '../errors';

export { placementPlanner, PLACEMENT_ROTATIONS } from './placement';
export { placementAfterstates, AFTERSTATE_FEATURES, AFTERSTATE_SCALE, type AfterstateFeature } from './placement-afterstates';
export { slideAfterstates, SLIDE_FEATURES, SLIDE_SCALE, type SlideFeature } from './slide-afterstates';
export { blockDropPlanner, DROP_SLOTS } from './block-drop';
export { blockDropAfterstates, DROP_FEATURES, DROP_SCALE, type DropFeature } from './block-drop-afterstates';
export { snakeAfterstates, SNAKE_FEATURES, type SnakeFeature } from './snake-afterstates';
export { mazeAfterstates, MAZE_FEATURES, type MazeFeature } from './maze-afterstates';
export { platformerAfterstates, PLATFORMER_FEATURES, type PlatformerFeature } from './platformer-afterstates';

/** What the policy reads: the verifier's features (the default) or each decision's afterstate. */
const AfterstateObservation = z.enum(['verifier', 'afterstates'], { error: 'actions.observation must be verifier or afterstates' }).optional();

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
    /**
     * The game's preset: one decision = one key (the default). `observation` 'afterstates': the
     * policy reads what each key would leave behind (2048's slides, Snake's and Path of Light's moves, the platformer's keys: PRESET_AFTERSTATES).
     */
    z.strictObject({ kind: z.literal('preset'), observation: AfterstateObservation }),
    /**
     * Tetris placements: 4 rotations × 10 columns, then a hard drop (placement.ts). `observation`
     * 'afterstates': the policy reads what each placement leaves behind (placement-afterstates.ts,
     * [40 × features]) instead of the verifier's features ('verifier', the default).
     */
    z.strictObject({ kind: z.literal('placement'), observation: AfterstateObservation }),
    /**
     * Block drops (Wood Blocks 3D): 3 offered pieces × 8×8 top-left cells, each carried out as
     * select, cursor moves and place (block-drop.ts). `observation` 'afterstates': the policy reads
     * each drop's outcome and key cost (block-drop-afterstates.ts, [192 × features]).
     */
    z.strictObject({ kind: z.literal('drop'), observation: AfterstateObservation }),
  ],
  {
    error: (i) =>
      typeof i.input === 'object' && i.input !== null
        ? `actions.kind must be preset, placement or drop, got ${JSON.stringify((i.input as { kind?: unknown }).kind ?? null)}`
        : `actions must be {"kind": "preset"}, {"kind": "placement"} or {"kind": "drop"}, got ${JSON.stringify(i.input)}`,
  },
);
export type ActionSet = z.infer<typeof ActionSet>;

const SLIDE_KEYS: readonly SlideDirection[] = ['up', 'right', 'down', 'left'];
const SNAKE_KEYS: readonly SnakeKey[] = ['up', 'right', 'down', 'left', 'noop'];
const MAZE_KEYS: readonly MazeKey[] = ['up', 'right', 'down', 'left'];
const PLATFORMER_KEYS: readonly PlatformerKey[] = ['right', 'jump-right', 'jump', 'left', 'noop'];

/** Games whose preset keys have afterstate features: the preset's key names, in order, and the features. */
const PRESET_AFTERSTATES: Record<string, { keys: readonly string[]; features: (manifest: GameManifest) => DecisionFeatures }> = {
  g2048: { keys: SLIDE_KEYS, features: () => slideAfterstates(SLIDE_KEYS) },
  snake: { keys: SNAKE_KEYS, features: () => snakeAfterstates(SNAKE_KEYS) },
  'path-of-light': { keys: MAZE_KEYS, features: () => mazeAfterstates(MAZE_KEYS) },
  platformer: { keys: PLATFORMER_KEYS, features: (manifest) => platformerAfterstates(PLATFORMER_KEYS, manifest.msPerStep) },
};

/** The preset's keys as one-key decisions, for a policy that observes what each key leads to. */
function presetAfterstatePlanner(manifest: GameManifest): MacroPlanner<number> {
  const known = PRESET_AFTERSTATES[manifest.id];
  const names = manifest.preset.map((p) => p.name);
  if (!known || names.join() !== known.keys.join()) {
    throw new ArcadeGymError(
      'INVALID_OPTIONS',
      `actions {"kind": "preset", "observation": "afterstates"} needs afterstate features for ${manifest.id}'s preset; ` +
        `they exist for ${Object.keys(PRESET_AFTERSTATES).join(', ')} (and for tetris over placements, wood-blocks-3d over drops)`,
    );
  }
  return {
    numDecisions: names.length,
    names,
    decisionFeatures: known.features(manifest),
    singleKey: true,
    start(decision) {
      let pressed = false;
      return {
        next() {
          if (pressed) return null;
          pressed = true;
          return decision;
        },
      };
    },
  };
}

/** The planner an action set needs on a game, or null for the game's own preset read through the verifier's features. */
export function macroPlannerFor(actions: ActionSet | undefined, manifest: GameManifest): MacroPlanner<number> | null {
  if (!actions) return null;
  const afterstates = actions.observation === 'afterstates';
  if (actions.kind === 'preset') return afterstates ? presetAfterstatePlanner(manifest) : null;
  if (actions.kind === 'drop') {
    const planner = blockDropPlanner(manifest);
    return afterstates ? { ...planner, decisionFeatures: blockDropAfterstates() } : planner;
  }
  const planner = placementPlanner(manifest);
  return afterstates ? { ...planner, decisionFeatures: placementAfterstates() } : planner;
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

/**
 * A policy's next key on a game: directly from the observation, or through the action set's driver,
 * which asks the policy for a decision when the last one is done, reading the decisions' features
 * (from the state the decision starts at) when the planner has them, as the policy was trained.
 * `eval --agent ppo` and the in-page evaluation both play a policy through this.
 */
export function nextPolicyKey(
  driver: MacroDriver | null,
  state: unknown,
  observation: () => ArrayLike<number>,
  act: (obs: ArrayLike<number>) => Promise<number>,
): Promise<number> {
  if (!driver) return act(observation());
  const features = driver.planner.decisionFeatures;
  return driver.next({ state }, () => act(features ? features.encode({ state }) : observation()));
}

/**
 * A game's env seen through an action set's planner: macro decisions carried out key by key, and
 * observing what each decision leads to when the planner can tell. The CLI's pages and the in-page
 * trainer's frames go through this one function, so both train on the same env.
 */
export function withDecisions<RInfo, SInfo>(env: Env<Observation, number, RInfo, SInfo>, planner: MacroPlanner<number>) {
  const macro = new MacroAction(env, planner);
  return planner.decisionFeatures ? new DecisionObservation(macro, planner) : macro;
}

/**
 * A vector env under a planner of one-key decisions (`singleKey`), observing what each decision
 * leads to: the envs' actions are the decisions, so they step together (batched pages) and only
 * the observation changes. The same observations, step for step, as `withDecisions` on each env.
 */
export function withVectorDecisions<RInfo, SInfo>(venv: VectorEnv<Observation, number, RInfo, SInfo>, planner: MacroPlanner<number>) {
  if (!planner.singleKey || !planner.decisionFeatures) throw new Error('withVectorDecisions needs a planner of one-key decisions with decision features');
  return new VectorDecisionObservation(venv, planner);
}

/** The observation shape a policy over the planner's decisions reads, or null when it reads the verifier's features. */
export function decisionObservationShape(planner: MacroPlanner<number> | null): number[] | null {
  return planner?.decisionFeatures ? [planner.numDecisions, planner.decisionFeatures.perDecision] : null;
}
