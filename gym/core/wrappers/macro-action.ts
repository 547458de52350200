import { ArcadeGymError } from '../../errors';
import type { Env, ResetOptions, ResetResult, StepResult } from '../env';
import { discreteSpace, type Space } from '../spaces';
import type { VectorStepResult } from '../vector-env';
import { VectorWrapper, Wrapper, isResetOnly, unwrapState, wrapState } from './wrapper';

/**
 * One decision being carried out (an option's intra-option policy): asked for the next
 * primitive action with the info of the env's last reset or step, it answers one, or null
 * when the decision is done. Closed-loop on purpose: it reads where the game really is after
 * each primitive, so gravity or a wall kick cannot throw it off, and it is deterministic
 * because it reads nothing but that info and its own decision.
 */
export interface MacroController<Act> {
  next(info: unknown): Act | null;
}

/**
 * What each decision would lead to, read from the info a decision starts from: a feature row per
 * decision ([numDecisions × perDecision], row-major), for a policy that scores decisions by
 * their outcome (an afterstate observation) rather than from the raw state.
 */
export interface DecisionFeatures {
  readonly perDecision: number;
  readonly names: readonly string[];
  encode(info: unknown): Float32Array;
}

/** Turns decision indices into controllers: what a macro action set is. */
export interface MacroPlanner<Act> {
  /** Decisions are 0 … numDecisions − 1. */
  readonly numDecisions: number;
  readonly names: readonly string[];
  /** What each decision leads to, for planners that can tell (DecisionObservation). */
  readonly decisionFeatures?: DecisionFeatures;
  /**
   * Every decision is one primitive action, decision d being action d (one-key decisions over a
   * game's preset): such a planner needs no MacroAction, and envs under it can step together
   * (batched pages, VectorDecisionObservation).
   */
  readonly singleKey?: boolean;
  /** Starts decision `decision` from the info of the env's last reset or step. */
  start(decision: number, info: unknown): MacroController<Act>;
}

/** A guard against a controller that never ends (a planner bug): no decision takes more primitives than this. */
export const MAX_PRIMITIVES_PER_DECISION = 64;

export interface MacroStepInfo<Act> {
  /** The primitive actions the decision was carried out with, in order (what the episode record holds). */
  actions: Act[];
  /** Their number, τ. */
  steps: number;
  /** γ^τ when the wrapper discounts inside the macro (the discount the next decision's value gets); absent otherwise. */
  discount?: number;
}

export interface MacroActionOptions {
  /**
   * Discount inside the macro: the decision's reward is Σₖ γᵏ rₖ and `info.macro.discount` is
   * γ^τ (SMDP-exact for a learner that discounts each transition by it). Without it the
   * primitive rewards are summed undiscounted and a learner's γ applies per decision.
   */
  gamma?: number;
}

/**
 * Macro actions (options, SMDP-style): the agent picks one decision, the wrapper asks the
 * planner's controller for primitive actions and steps the env once per primitive, summing the
 * rewards, until the controller is done or the episode terminates or is truncated. The env
 * below sees (and its episode record keeps) only primitive actions, so step budgets, records
 * and their verification are the same as for an agent pressing the keys itself. The observation
 * and info are those of the last primitive step, with `info.macro` added.
 */
export class MacroAction<Obs, Act, RInfo = object, SInfo = object> extends Wrapper<Obs, number, RInfo, SInfo & { macro: MacroStepInfo<Act> }> {
  private lastInfo: unknown = undefined;

  constructor(
    readonly inner: Env<Obs, Act, RInfo, SInfo>,
    readonly planner: MacroPlanner<Act>,
    readonly options: MacroActionOptions = {},
  ) {
    super(inner as unknown as Env<Obs, number, RInfo, SInfo & { macro: MacroStepInfo<Act> }>);
    const g = options.gamma;
    if (g !== undefined && !(g > 0 && g <= 1)) throw new ArcadeGymError('INVALID_OPTIONS', `MacroAction: gamma must be in (0, 1], got ${g}`);
  }

  override get actionSpace(): Space {
    return discreteSpace(this.planner.numDecisions, this.planner.names);
  }

  override async reset(options?: ResetOptions): Promise<ResetResult<Obs, RInfo>> {
    const r = await this.inner.reset(options);
    this.lastInfo = r.info;
    return r;
  }

  override async step(decision: number): Promise<StepResult<Obs, SInfo & { macro: MacroStepInfo<Act> }>> {
    if (!Number.isInteger(decision) || decision < 0 || decision >= this.planner.numDecisions) {
      throw new ArcadeGymError('ACTION_OUT_OF_RANGE', `macro decision must be an integer in 0..${this.planner.numDecisions - 1}, got ${String(decision)}`);
    }
    if (this.lastInfo === undefined) throw new ArcadeGymError('RESET_NEEDED', 'step() called before reset(): call reset() first');
    const controller = this.planner.start(decision, this.lastInfo);
    const gamma = this.options.gamma;
    const actions: Act[] = [];
    let reward = 0;
    let discount = 1;
    let last: StepResult<Obs, SInfo> | null = null;
    for (;;) {
      const action = controller.next(this.lastInfo);
      if (action === null) break;
      if (actions.length >= MAX_PRIMITIVES_PER_DECISION) {
        throw new Error(`macro decision ${decision} did not end within ${MAX_PRIMITIVES_PER_DECISION} primitive actions`);
      }
      last = await this.inner.step(action);
      actions.push(action);
      reward += discount * last.reward;
      if (gamma !== undefined) discount *= gamma;
      this.lastInfo = last.info;
      if (last.terminated || last.truncated) break;
    }
    if (!last) throw new Error(`macro decision ${decision} gave no primitive action`);
    const macro: MacroStepInfo<Act> = { actions, steps: actions.length, ...(gamma !== undefined ? { discount } : {}) };
    return { ...last, reward, info: { ...last.info, macro } };
  }

  override getState(): unknown {
    return wrapState(this.inner, { lastInfo: this.lastInfo ?? null });
  }

  override setState(state: unknown): void {
    const own = unwrapState(this.inner, state) as { lastInfo: unknown };
    this.lastInfo = own.lastInfo ?? undefined;
  }
}

/**
 * Counts the primitive env steps under a vector env of MacroActions (`info.macro.steps`, the
 * final info's on a same-step autoreset; 1 for an env without macros), so a budget can be in the
 * steps the episodes record rather than in decisions. Reset-only transitions count nothing.
 */
export class VectorCountPrimitiveSteps<Obs, Act> extends VectorWrapper<Obs, Act> {
  primitiveSteps = 0;

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, object, object>> {
    const r = await super.step(actions);
    for (const info of r.infos as {
      autoreset?: boolean;
      resetFailure?: unknown;
      finalObservation?: unknown;
      macro?: { steps: number };
      finalInfo?: { macro?: { steps: number } };
    }[]) {
      if (isResetOnly(info)) continue;
      this.primitiveSteps += (info.finalInfo ?? info).macro?.steps ?? 1;
    }
    return r;
  }

  override getState(): unknown {
    return wrapState(this.env, { primitiveSteps: this.primitiveSteps });
  }

  override setState(state: unknown): void {
    this.primitiveSteps = (unwrapState(this.env, state) as { primitiveSteps: number }).primitiveSteps;
  }
}
