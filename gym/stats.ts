/**
 * Mean, standard deviation and the human-normalised scores, for code that reports scores
 * without running games (the leaderboard). Browser-safe; gym/eval runs the episodes.
 */
export { humanNormalised, mean, median, randomHumanNormalised, std } from './eval/stats';
