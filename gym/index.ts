/**
 * Arcade Gym's public API for Node. Import from here, or from one of the narrower entry points
 * listed in gym/README.md (some of them browser-safe); the files behind them are implementation.
 */
// Gymnasium's interfaces: Env, VectorEnv, SyncVectorEnv, spaces, wrappers, the env checker.
export * from './core';
export { checkGame, type CheckGameOptions } from './core/check-game';
export { SeededRandom, Rng, type RngState } from './random';

// One game in one browser page.
export {
  makeEnv,
  ArcadeEnv,
  FRAME_HASH_UNAVAILABLE,
  type StepResult as ArcadeStepResult,
  type ResetResult as ArcadeResetResult,
  type StepInfo,
  type ResetInfo,
  type ReplayedStep,
} from './env/env';
export type { Observation, PixelObservation } from './env/observation';
export { ArcadeGymError, type ArcadeErrorCode } from './errors';
export { loadCatalog, getGame, gamesInSuite } from './catalog';
export { launchBrowser } from './browser/launch';
export * from './schema';

// The gym at scale: browser pool, pooled envs, sessions, the pooled vector env, the HTTP API.
export {
  BrowserPool,
  PooledEnv,
  ServiceError,
  type PoolOptionsInput,
  type EpisodeOutcome,
  type PageState,
  type PooledStepResult,
  type RecoveryEvent,
} from './pool';
export { SessionManager, Session, type SessionStatus, type SessionManagerOptions } from './sessions';
export { makeVectorEnv, PooledVectorEnv, type VectorEnvOptions } from './vector';
export { startGymServer, type GymServer, type GymServerOptions } from './server';

// CartPole-v1, for checking a learner without a browser.
export { CartPole, CartPoleVectorEnv, cartPoleTask, CARTPOLE, type CartPoleVectorOptions } from './cartpole';
// WebGPU in Node (Dawn), for the trainer and benches outside a page.
export { createNodeGpu, preferSwiftShaderWhenUnset } from './nn/webgpu/node-gpu';

// Agents, evaluation, re-simulation.
export { verifyEpisode, type VerificationResult } from './verify/resimulate';
export { runEpisode, replayActions } from './eval/run-episode';
export { evaluateGame, type GameEvaluation } from './eval/evaluate';
export { createAgent, registerAgent, agentNames } from './agents/registry';
export type { Agent, AgentContext, AgentTurn, ScriptedPolicy } from './agents/agent';
