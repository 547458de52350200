import type { Observation } from '../../env/observation';
import type { Env, ResetOptions, ResetResult, StepResult } from '../env';
import { boxSpace, type Space } from '../spaces';
import type { DecisionFeatures, MacroPlanner } from './macro-action';
import { Wrapper } from './wrapper';

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
    const features = planner.decisionFeatures;
    if (!features) throw new Error('DecisionObservation needs a planner with decisionFeatures');
    this.features = features;
    const inner = env.observationSpace;
    const names = planner.names.flatMap((d) => features.names.map((f) => `${d}: ${f}`));
    const vector = { ...boxSpace([planner.numDecisions, features.perDecision]), names };
    this.space = { type: 'Dict', spaces: { ...(inner.type === 'Dict' ? inner.spaces : {}), vector } };
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
