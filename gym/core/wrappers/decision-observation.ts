import type { Observation } from '../../env/observation';
import type { Env, ResetOptions, ResetResult, StepResult } from '../env';
import { batchSpace, boxSpace, type Space } from '../spaces';
import type { VectorEnv, VectorResetOptions, VectorResetResult, VectorStepResult } from '../vector-env';
import type { DecisionFeatures, MacroPlanner } from './macro-action';
import { VectorWrapper, Wrapper } from './wrapper';

/** The env's Dict space with `vector` replaced by the decisions' [numDecisions, perDecision] Box. */
function decisionSpace(inner: Space, planner: MacroPlanner<unknown>): { space: Space; features: DecisionFeatures } {
  const features = planner.decisionFeatures;
  if (!features) throw new Error('DecisionObservation needs a planner with decisionFeatures');
  const names = planner.names.flatMap((d) => features.names.map((f) => `${d}: ${f}`));
  const vector = { ...boxSpace([planner.numDecisions, features.perDecision]), names };
  return { space: { type: 'Dict', spaces: { ...(inner.type === 'Dict' ? inner.spaces : {}), vector } }, features };
}

/**
 * An arcade env whose `vector` observation is what each macro decision would lead to
 * (DecisionFeatures, e.g. Tetris placement afterstates) instead of the verifier's features:
 * a [numDecisions, perDecision] Box, encoded from the info of every reset and step. Sits on a
 * MacroAction, so the observation is always the one a decision is taken from.
 */
export class DecisionObservation<Act, RInfo = object, SInfo = object> extends Wrapper<Observation, Act, RInfo, SInfo> {
  private readonly space: Space;
  private readonly features: DecisionFeatures;

  constructor(env: Env<Observation, Act, RInfo, SInfo>, planner: MacroPlanner<unknown>) {
    super(env);
    ({ space: this.space, features: this.features } = decisionSpace(env.observationSpace, planner));
  }

  override get observationSpace(): Space {
    return this.space;
  }

  private observe(obs: Observation, info: unknown): Observation {
    return { ...obs, vector: this.features.encode(info) };
  }

  override async reset(options?: ResetOptions): Promise<ResetResult<Observation, RInfo>> {
    const r = await this.env.reset(options);
    return { ...r, observation: this.observe(r.observation, r.info) };
  }

  override async step(action: Act): Promise<StepResult<Observation, SInfo>> {
    const r = await this.env.step(action);
    return { ...r, observation: this.observe(r.observation, r.info) };
  }
}

/**
 * DecisionObservation for a vector env whose actions are the decisions themselves (a planner of
 * one-key decisions, `MacroPlanner.singleKey`: decision d is preset key d, so no MacroAction is
 * needed and the envs can step together in batched pages). Each observation is encoded from the
 * info it belongs to: the reset's (`resetInfo` on an autoreset), the step's, and a same-step
 * autoreset's final one from `finalInfo`. A sub-env that could not reset reads as zeros.
 */
export class VectorDecisionObservation<Act, RInfo = object, SInfo = object> extends VectorWrapper<Observation, Act, RInfo, SInfo> {
  private readonly space: Space;
  private readonly features: DecisionFeatures;

  /** Elements of one decision observation: what a sub-env that could not reset reads as zeros of. */
  private readonly size: number;

  constructor(env: VectorEnv<Observation, Act, RInfo, SInfo>, planner: MacroPlanner<unknown>) {
    super(env);
    ({ space: this.space, features: this.features } = decisionSpace(env.singleObservationSpace, planner));
    this.size = planner.numDecisions * this.features.perDecision;
  }

  override get singleObservationSpace(): Space {
    return this.space;
  }

  override get observationSpace(): Space {
    return batchSpace(this.space, this.numEnvs);
  }

  private observe(obs: Observation | undefined, info: unknown): Observation {
    const failed = !info || (info as { resetFailure?: unknown }).resetFailure !== undefined;
    return { ...obs, vector: failed ? new Float32Array(this.size) : this.features.encode(info) };
  }

  override async reset(options?: VectorResetOptions): Promise<VectorResetResult<Observation, RInfo>> {
    const r = await this.env.reset(options);
    return { ...r, observations: r.observations.map((o, i) => this.observe(o, r.infos[i])) };
  }

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Observation, SInfo, RInfo>> {
    const r = await this.env.step(actions);
    const infos = r.infos.map((info) =>
      info.finalObservation === undefined ? info : { ...info, finalObservation: this.observe(info.finalObservation, info.finalInfo) },
    );
    // An autoreset's observation starts the new episode (resetInfo); a failed reset has no resetInfo, and observe sees its resetFailure.
    const observations = r.observations.map((o, i) => this.observe(o, r.infos[i].resetInfo ?? r.infos[i]));
    return { ...r, observations, infos };
  }
}
