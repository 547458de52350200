/**
 * What bench:learn and bench:ablation share: a game's run resolved from its preset (the same
 * layers as `arcade-gym train`), the gym's own rate on the run's env, and the figures both print.
 */
import { type PpoConfig, type TrainingEnv } from '../gym/ppo';
import { resolveTraining, startingPreset, type TrainCommandConfig } from '../gym/training-settings';
import type { GameEvaluation } from '../gym/eval';
import { actionMaskOf, VectorWrapper, type VectorResetOptions, type VectorResetResult, type VectorStepResult } from '../gym/core';
import { Rng } from '../gym/random';

export function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** A comma-separated list from the environment, or the fallback. */
export function listEnv(name: string, fallback: readonly string[]): string[] {
  return (process.env[name] ?? fallback.join(','))
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
}

export interface Figures {
  mean: number;
  std: number;
}

export const figures = (e: GameEvaluation): Figures => ({ mean: e.meanScore, std: e.stdScore });
/** Standard error of the difference of two means over n episodes each. */
export const seDiff = (a: Figures, b: Figures, n: number) => Math.sqrt((a.std ** 2 + b.std ** 2) / n);
export const round = (x: number, d = 1) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : x);
export const pm = (f: Figures | null) => (f ? `${round(f.mean)} ± ${round(f.std)}` : '–');

export interface ResolvedRun {
  run: TrainCommandConfig;
  config: PpoConfig;
}

/**
 * A game's PPO run as `arcade-gym train --game <id>` resolves it (gym/ppo/training-run.ts): the
 * game's preset or the generic agent, the training choices as flags, `ppoOverrides` as --config,
 * with the run's seed and budget (capped at `maxTimesteps`).
 */
export function resolveRun(opts: {
  game: string;
  seed: number;
  /** null: the preset's budget. */
  totalTimesteps: number | null;
  /** A cap on the budget (bench:learn's 300k). */
  maxTimesteps?: number;
  backend?: string;
  /** Training choices over the preset's (observation, numEnvs, …). */
  trainingOverrides?: Record<string, unknown>;
  ppoOverrides?: Record<string, unknown>;
  /** Start from the generic agent instead of the game's preset (as `train --generic`). */
  generic?: boolean;
}): ResolvedRun {
  const start = startingPreset(opts.game, opts.generic ?? false);
  const resolve = (totalTimesteps: number | undefined) => {
    const flags = { ...opts.trainingOverrides, game: opts.game, seed: opts.seed, backend: opts.backend ?? 'cpu', totalTimesteps };
    const r = resolveTraining({ start, flags, overrides: opts.ppoOverrides });
    if (!r.ppo) throw new Error(`${opts.game}: the benches train PPO, the run resolved to ${r.command.algo}`);
    return { run: r.command, config: r.ppo };
  };
  const first = resolve(opts.totalTimesteps ?? undefined);
  const cap = opts.maxTimesteps ?? Number.POSITIVE_INFINITY;
  return first.run.totalTimesteps > cap ? resolve(cap) : first;
}

/**
 * Env steps per second of the gym alone: the run's vector env stepped with uniform random actions
 * for `stepsPerEnv` steps per env — a game's step budget, so that episode ends and autoresets
 * (which training pays for too) are part of the figure. Draws are narrowed as training's are, since
 * an action the game refuses is a step that changes nothing, far cheaper than the moves training
 * plays, so drawing among all of them would measure other work than training's:
 * `allowedDecisions`, when given, to the decisions an observation allows (rows with an `allowed`
 * column); else, with `masked` (the run's `maskActions`), to the actions of the env's action mask
 * (info.actionMask, as the rollout reads it).
 */
export async function gymRate(
  env: TrainingEnv,
  numActions: number,
  stepsPerEnv: number,
  opts: { primitiveSteps?: () => number; allowedDecisions?: (obs: ArrayLike<number>) => number[]; masked?: boolean } = {},
): Promise<{ stepsPerSec: number; decisionsPerSec: number }> {
  let { observations, infos } = await env.reset({ seed: 999 });
  const rng = new Rng(999);
  const allowed = (e: number): number[] => {
    const rows = opts.allowedDecisions?.(observations[e]);
    if (rows) return rows;
    const mask = opts.masked ? actionMaskOf(infos[e]) : undefined;
    const ok: number[] = [];
    if (mask) for (let a = 0; a < numActions; a++) if (mask[a]) ok.push(a);
    return ok;
  };
  const draw = (e: number) => {
    const ok = allowed(e);
    return ok.length > 0 ? ok[Math.floor(rng.uniform() * ok.length)] : Math.floor(rng.uniform() * numActions);
  };
  const before = opts.primitiveSteps?.() ?? 0;
  const t0 = performance.now();
  for (let t = 0; t < stepsPerEnv; t++) {
    ({ observations, infos } = await env.step(observations.map((_, e) => draw(e))));
  }
  // Under macro actions each step is several primitive ones: count those, as the training figure does.
  const seconds = (performance.now() - t0) / 1000;
  const steps = opts.primitiveSteps ? opts.primitiveSteps() - before : stepsPerEnv * env.numEnvs;
  return { stepsPerSec: steps / seconds, decisionsPerSec: (stepsPerEnv * env.numEnvs) / seconds };
}

/**
 * For observations of one feature row per decision with an `allowed` column (Wood Blocks' drops):
 * the decisions whose row says allowed; undefined when the rows have no such column.
 */
export function allowedFromRows(featureNames: readonly string[] | undefined): ((obs: ArrayLike<number>) => number[]) | undefined {
  const column = featureNames?.indexOf('allowed') ?? -1;
  if (!featureNames || column < 0) return undefined;
  const width = featureNames.length;
  return (obs) => {
    const allowed: number[] = [];
    for (let d = 0; d * width < obs.length; d++) if (obs[d * width + column] > 0) allowed.push(d);
    return allowed;
  };
}

/**
 * Counts the seconds the trainer spends waiting on the env (resets and steps), so a run can say
 * how much of its time is the gym and how much the learner (acting, wrappers, updates).
 */
export class TimedVectorEnv<Obs, Act> extends VectorWrapper<Obs, Act> {
  seconds = 0;
  /** Actions taken (one per sub-env per step): decisions, under macro actions. */
  decisions = 0;

  override async reset(options?: VectorResetOptions): Promise<VectorResetResult<Obs, object>> {
    const t0 = performance.now();
    try {
      return await super.reset(options);
    } finally {
      this.seconds += (performance.now() - t0) / 1000;
    }
  }

  override async step(actions: readonly Act[]): Promise<VectorStepResult<Obs, object, object>> {
    const t0 = performance.now();
    this.decisions += actions.length;
    try {
      return await super.step(actions);
    } finally {
      this.seconds += (performance.now() - t0) / 1000;
    }
  }
}
