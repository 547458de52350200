/**
 * Playing and checking episodes: an agent over seeds (evaluateGame), one episode or a replayed
 * action list, re-simulating records (one at a time or batched) and checking a game against the
 * env contract (checkGame). Node: runs Chromium. The digests that pin every game's records are an
 * entry point of their own (gym/eval/record-digests), kept out of the site's server bundle.
 * Score statistics that need no browser are in gym/stats.
 */
export { evaluateGame, type EvaluateOptions, type GameEvaluation } from './evaluate';
export { replayActions, runEpisode, type GameEnv } from './run-episode';
export { verifyEpisode, type VerificationResult } from '../verify/resimulate';
export { verifyEpisodes, type VerifyManyOptions } from '../verify/verify-many';
/** The final frame hash a record carries when the page could not hash its frame. */
export { FRAME_HASH_UNAVAILABLE } from '../env/env';
/** The env checker (gym/core's checkEnv) run on a built game in Chromium. */
export { checkGame, type CheckGameOptions } from '../core/check-game';
