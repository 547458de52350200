import type { PpoConfig } from './config';

export type RewardShapingConfig = PpoConfig['rewardShaping'];

/**
 * r' = r − stepPenalty + [terminated]·terminationBonus + [episode ended]·outcomeBonus·outcome.
 * Logged episode returns always use the raw reward; only the learner sees r'.
 */
export function shapeReward(reward: number, terminated: boolean, truncated: boolean, outcome: number | null | undefined, c: RewardShapingConfig): number {
  if (!c.enabled) return reward;
  let r = reward - c.stepPenalty;
  if (terminated) r += c.terminationBonus;
  if ((terminated || truncated) && outcome !== null && outcome !== undefined) r += c.outcomeBonus * outcome;
  return r;
}
