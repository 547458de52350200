import { RewardShaping as RewardShapingSchema, type RewardShaping as RewardShapingConfig } from '../../schema/records';
import type { Env, StepResult } from '../env';
import type { VectorEnv, VectorStepResult } from '../vector-env';
import { VectorWrapper, Wrapper, isResetOnly } from './wrapper';

/**
 * The one reward-shaping config: `perStep` added to every step's reward (negative: a length
 * penalty), `terminal` added on the step that terminates the episode (not on truncation).
 * The same schema is the env option `shaping` (and so part of every episode record) and the
 * trainer's `rewardShaping`.
 */
export { RewardShapingSchema, type RewardShapingConfig };

/** r' = r + perStep + [terminated]·terminal, in that order (episode records depend on it). */
export function shapeReward(reward: number, terminated: boolean, c: RewardShapingConfig): number {
  return reward + c.perStep + (terminated ? c.terminal : 0);
}

export function isShaping(c: RewardShapingConfig): boolean {
  return c.perStep !== 0 || c.terminal !== 0;
}

/** Shapes the rewards of an env (for envs whose episode records should stay unshaped, shape here rather than in the env). */
export class ShapeReward<Obs, Act, RInfo = object, SInfo = object> extends Wrapper<Obs, Act, RInfo, SInfo> {
  readonly config: RewardShapingConfig;

  constructor(env: Env<Obs, Act, RInfo, SInfo>, config: Partial<RewardShapingConfig>) {
    super(env);
    this.config = RewardShapingSchema.parse(config);
  }

  override async step(action: Act): Promise<StepResult<Obs, SInfo>> {
    const r = await this.env.step(action);
    return { ...r, reward: shapeReward(r.reward, r.terminated, this.config) };
  }
}

/** Shapes every sub-env's rewards; next-step autoreset steps (no transition) keep reward 0. */
export class VectorShapeReward<Obs, Act, RInfo = object, SInfo = object> extends VectorWrapper<Obs, Act, RInfo, SInfo> {
  readonly config: RewardShapingConfig;

  constructor(env: VectorEnv<Obs, Act, RInfo, SInfo>, config: Partial<RewardShapingConfig>) {
    super(env);
    this.config = RewardShapingSchema.parse(config);
  }

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, SInfo, RInfo>> {
    const r = await this.env.step(actions);
    const rewards = Float64Array.from(r.rewards, (x, i) => (isResetOnly(r.infos[i]) ? x : shapeReward(x, r.terminated[i], this.config)));
    return { ...r, rewards };
  }
}
