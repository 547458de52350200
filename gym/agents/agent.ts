import type { Observation } from '../env/observation';
import type { ObservationKind, PixelOptions } from '../env/options';
import type { Action } from '../schema/action';
import type { GameManifest } from '../schema/manifest';
import type { VerifierState } from '../schema/records';

export interface AgentContext {
  manifest: GameManifest;
  /** Seed of the episode; agents that need randomness derive theirs from it. */
  seed: number;
}

export interface AgentTurn {
  observation: Observation;
  /** The verifier state is always available to agents that read it (scripted baselines do). */
  state: VerifierState;
  step: number;
  /** The env's action mask for this turn (info.actionMask), for games whose verifier gives one. */
  actionMask?: readonly number[];
}

export interface Agent {
  readonly name: string;
  /** Observations this agent reads (an evaluation asks the env for them too), e.g. ['screenshot'] for a vision model. */
  readonly observation?: readonly ObservationKind[];
  /** The pixel observations it reads, when it reads pixels (size, colour); the env is asked for exactly these. */
  readonly pixels?: PixelOptions;
  /** Called at the start of each episode. */
  reset(ctx: AgentContext): void | Promise<void>;
  act(turn: AgentTurn): Action | Promise<Action>;
  /** Counters worth reporting after an evaluation (model calls, parse errors, tokens, …). */
  stats?(): Record<string, number>;
}

/** What games/<id>/scripted-agent.ts default-exports: a sensible, deterministic baseline. */
export type ScriptedPolicy<S extends VerifierState = VerifierState> = (state: S, ctx: { step: number; manifest: GameManifest; random: () => number }) => Action;
