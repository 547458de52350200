import { expect } from 'vitest';
import type { ResetInfo, StepInfo } from '../../../gym';
import { getGame } from '../../../gym/catalog';
import { type MacroPlanner, macroPlannerFor, withDecisions } from '../../../gym/actions';
import type { VerifierState } from '../../../gym/schema';
import type { useBrowser } from '../../../gym/testing';

/**
 * What the afterstate tests of the games that ship decisions (`decisions.ts`) share, written
 * once: the env a decision planner observes through (the one `withDecisions` the trainer uses), a
 * reader of one decision's feature, the crude greedy player each test steers with, and the play
 * loop that checks every decision's predicted features against what the game then did.
 */

type Gym = ReturnType<typeof useBrowser>;
type DecisionEnv = ReturnType<typeof withDecisions<ResetInfo, StepInfo>>;
type DecisionStep = Awaited<ReturnType<DecisionEnv['step']>>;

export interface AfterstateEnv {
  planner: MacroPlanner<number>;
  env: DecisionEnv;
}

/** A real page of `game` seen through the action set's planner, observing each decision's afterstate features: a row of `features` per decision. */
export async function afterstateEnv(
  gym: Gym,
  game: string,
  actions: string,
  opts: { seed: number; maxSteps: number; features: readonly string[] },
): Promise<AfterstateEnv> {
  const planner = await macroPlannerFor({ kind: actions, observation: 'afterstates' }, getGame(game));
  if (!planner?.decisionFeatures) throw new Error(`${game} offers no ${actions} afterstates`);
  const env = withDecisions<ResetInfo, StepInfo>(await gym.env({ game, seed: opts.seed, observation: 'state', maxSteps: opts.maxSteps }), planner);
  expect(env.observationSpace).toMatchObject({ type: 'Dict', spaces: { vector: { type: 'Box', shape: [planner.numDecisions, opts.features.length] } } });
  return { planner, env };
}

/** Reads feature `name` of decision d from an afterstate observation (a row of `names.length` per decision), times its scale. */
export function featureReader<F extends string>(names: readonly F[], scale?: Readonly<Record<F, number>>) {
  return (obs: Float32Array, d: number, name: F): number => obs[d * names.length + names.indexOf(name)] * (scale?.[name] ?? 1);
}

/** The candidate decision of highest score, the first on ties: the tests' crude greedy players. */
export function bestDecision(candidates: number | readonly number[], score: (d: number) => number): number {
  const ds = typeof candidates === 'number' ? [...Array(candidates).keys()] : candidates;
  let best = ds[0];
  let bestScore = -Infinity;
  for (const d of ds) {
    const s = score(d);
    if (s > bestScore) {
      bestScore = s;
      best = d;
    }
  }
  return best;
}

export interface Decision<S extends VerifierState> {
  /** Decisions taken so far in the whole play. */
  i: number;
  /** The seed of the episode it was taken in. */
  seed: number;
  d: number;
  /** The afterstate features observed before it. */
  obs: Float32Array;
  before: S;
  after: S;
  step: DecisionStep;
}

export interface AfterstatePlay<S extends VerifierState> {
  /** The first episode's seed; each later one plays the next. */
  seed: number;
  /** Most decisions in all. */
  decisions: number;
  /** Stops early once true (before the next decision). */
  enough?: () => boolean;
  choose(obs: Float32Array, state: S, i: number): number;
  /** Checks one decision against what the game did. */
  check(t: Decision<S>): void;
  /** Ends the episode after this decision although the env did not (a game over the step budget hides). */
  endsEpisode?: (t: Decision<S>) => boolean;
}

/** Plays decisions on `env` from a reset on `seed`, resetting on the next seed after each episode, and checks each. */
export async function playDecisions<S extends VerifierState>({ env }: AfterstateEnv, play: AfterstatePlay<S>): Promise<void> {
  let seed = play.seed;
  let r: { observation: { vector?: unknown }; info: ResetInfo | StepInfo } = await env.reset({ seed });
  for (let i = 0; i < play.decisions && !play.enough?.(); i++) {
    const obs = r.observation.vector as Float32Array;
    const before = r.info.state as S;
    const d = play.choose(obs, before, i);
    const step = await env.step(d);
    const t = { i, seed, d, obs, before, after: step.info.state as S, step };
    play.check(t);
    r = step.terminated || step.truncated || play.endsEpisode?.(t) ? await env.reset({ seed: ++seed }) : step;
  }
}
