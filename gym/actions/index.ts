import { MacroAction, type MacroController, type MacroPlanner } from '../core/wrappers/macro-action';
import { DecisionObservation, VectorDecisionObservation } from '../core/wrappers/decision-observation';
import type { Env } from '../core/env';
import type { VectorEnv } from '../core/vector-env';
import type { Observation } from '../env/observation';
import { type ActionSet, gameSpecificActions } from './action-set';
import { type GameWithDecisions, notOffered, offersActionSet, plannerFrom } from './game-decisions';
import { loadGameDecisions } from './load-decisions';

/**
 * gym/actions: the generic contract of a policy's action sets (README.md). The game-specific
 * planners and afterstate features live with their games (games/<id>/decisions.ts); the gym
 * finds them through the catalog.
 */
export { ActionSet, describeActionSet, gameSpecificActions } from './action-set';
export { actionSetsOf, offeredKinds, offersActionSet, plannerFrom, type GameDecisions, type GameWithDecisions } from './game-decisions';
export { DECISIONS_GLOBAL, loadGameDecisions } from './load-decisions';
export type { DecisionFeatures, MacroController, MacroPlanner } from '../core/wrappers/macro-action';

/**
 * The planner an action set needs on a game (its catalog entry), loading the game's decisions
 * module when the set is one of its own; null for the game's own preset read through the
 * verifier's features. An action set the game does not offer is an error that lists those it does.
 */
export async function macroPlannerFor(actions: ActionSet | undefined, game: GameWithDecisions): Promise<MacroPlanner<number> | null> {
  if (!actions || !gameSpecificActions(actions)) return null;
  if (!offersActionSet(game, actions)) throw notOffered(game, actions);
  return plannerFrom(actions, game, await loadGameDecisions(game));
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
