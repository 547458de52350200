/**
 * One game's learning run for bench:learn (its preset) and bench:suite-learn (the generic agent):
 * the gym's own rate, training, and the held-out evaluation against the baselines.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { makeTrainingEnv, runPlanner } from '../gym/vector';
import { actionOptions, runDirectoryWriter, train } from '../gym/ppo';
import { observationShape } from '../gym/training-settings';
import { trainingProgress } from '../cli/train-progress';
import { getGame } from '../gym/catalog';
import { evaluateGame } from '../gym/eval';
import { humanNormalised } from '../gym/stats';
import { TimedVectorEnv, allowedFromRows, figures, gymRate, positiveInt, resolveRun, round, seDiff, type Figures } from './learn-run';
import { smokeOr } from './smoke';

const TRAIN_SEED = 1;

export interface GameResult {
  game: string;
  steps: number;
  evalMode: string;
  observation: string;
  ppo: Figures;
  /** The same policy evaluated in the other mode (greedy ↔ sample), when asked for. */
  ppoOtherMode: { mode: string; figures: Figures } | null;
  random: Figures;
  /** With macro actions: the random agent over the same decisions (the leaderboard's random is over keys). */
  randomDecisions: Figures | null;
  actions: string;
  scripted: Figures | null;
  human: number;
  ppoHumanNormalised: number;
  beatsRandom: boolean;
  matchesScripted: boolean | null;
  trainSeconds: number;
  wallSeconds: number;
  trainStepsPerSec: number;
  gymStepsPerSec: number;
  /** Share of training time spent waiting on the env (the rest is acting, wrappers and updates). */
  envShareOfTraining: number;
  /** Macro actions: training's decisions/s ÷ the probe's (null for key-by-key games). */
  trainVsGymPerDecision: number | null;
  /** Macro actions: keys pressed per decision, by the probe's random decisions and by training's. */
  keysPerDecision: { probe: number; training: number } | null;
  outDir: string;
}

/** How a run is chosen: its budget (null: the preset's, capped), whether it starts from the generic agent. */
export interface LearnGameOptions {
  stepsOverride: number | null;
  maxSteps: number;
  seeds: number[];
  outRoot: string;
  browser: Browser;
  generic?: boolean;
  /** Training choices over the preset's (numEnvs, …), before LEARN_OBSERVATION and LEARN_ENVS. */
  trainingOverrides?: Record<string, unknown>;
  /** PPO settings over the preset's (as `train --config`). */
  ppoOverrides?: Record<string, unknown>;
  /** Also evaluate the policy in the other mode (greedy ↔ sample). */
  bothModes?: boolean;
}

/**
 * Trains PPO on one game as `arcade-gym train` resolves it (the game's preset, or the generic
 * agent), after probing the gym's own rate on the same env, then evaluates the policy, the random
 * and the scripted agent on the same held-out seeds at the official step budget.
 */
export async function learnGame(game: string, o: LearnGameOptions): Promise<GameResult> {
  const { stepsOverride, seeds, outRoot, browser } = o;
  const started = performance.now();
  const entry = getGame(game);
  const { run, config } = resolveRun({
    game,
    seed: TRAIN_SEED,
    totalTimesteps: stepsOverride,
    maxTimesteps: o.maxSteps,
    generic: o.generic,
    ppoOverrides: o.ppoOverrides,
    backend: process.env.LEARN_BACKEND,
    trainingOverrides: {
      ...o.trainingOverrides,
      observation: process.env.LEARN_OBSERVATION,
      numEnvs: process.env.LEARN_ENVS ? positiveInt('LEARN_ENVS', 1) : o.trainingOverrides?.numEnvs,
    },
  });
  const totalTimesteps = run.totalTimesteps;
  const outDir = path.join(outRoot, o.generic ? `${game}-generic` : game);
  mkdirSync(outDir, { recursive: true });

  const planner = await runPlanner(run);
  const counted = makeTrainingEnv(run, planner);
  const env = new TimedVectorEnv(counted);
  // The probe's keys are not training's: the budget (stopWhen under macro actions) and the progress line count from after it.
  let probeKeys = 0;
  const trainingKeys = {
    get primitiveSteps() {
      return counted.primitiveSteps - probeKeys;
    },
  };
  const actions = actionOptions(run, getGame(run.game), planner, trainingKeys);
  const macro = run.actions.kind !== 'preset';
  let gymStepsPerSec: number;
  let gymDecisionsPerSec: number;
  let trainSeconds: number;
  let steps: number;
  let probeKeysPerDecision: number;
  try {
    // Under macro actions a probe step is a decision (several keys): a budget's worth of keys per env is about this many.
    const probeSteps = positiveInt('LEARN_PROBE_STEPS', smokeOr(macro ? Math.ceil(entry.manifest.stepBudget / 8) : entry.manifest.stepBudget, 10));
    const allowed = allowedFromRows(planner?.decisionFeatures?.names);
    ({ stepsPerSec: gymStepsPerSec, decisionsPerSec: gymDecisionsPerSec } = await gymRate(env, actions.numActions, probeSteps, {
      primitiveSteps: () => counted.primitiveSteps,
      allowedDecisions: allowed,
      masked: config.maskActions,
    }));
    probeKeys = counted.primitiveSteps;
    probeKeysPerDecision = probeKeys / Math.max(1, env.decisions);
    env.seconds = 0;
    env.decisions = 0;
    const t0 = performance.now();
    await train({
      env,
      obsShape: observationShape(run, entry.featureNames.length),
      ...actions,
      backend: run.backend,
      config,
      writer: await runDirectoryWriter(outDir),
      onUpdate: trainingProgress(game, totalTimesteps, trainingKeys),
    });
    trainSeconds = (performance.now() - t0) / 1000;
    // Primitive env steps (what the episodes record), also under macro actions.
    steps = trainingKeys.primitiveSteps;
  } finally {
    process.stderr.write('\n');
    await env.close();
  }

  const evaluate = (agent: string, agentOptions = {}) => evaluateGame({ game: entry, agent, seeds, browser, agentOptions });
  const policy = (mode: string) => ({ checkpoint: path.join(outDir, 'policy.agckpt'), backend: 'cpu', mode });
  const ppo = figures(await evaluate('ppo', policy(run.evaluation.mode)));
  const otherMode = run.evaluation.mode === 'greedy' ? 'sample' : 'greedy';
  const ppoOtherMode = o.bothModes ? { mode: otherMode, figures: figures(await evaluate('ppo', policy(otherMode))) } : null;
  const random = figures(await evaluate('random'));
  const randomDecisions = macro ? figures(await evaluate('random', { actions: run.actions })) : null;
  let scripted: Figures | null = null;
  try {
    scripted = figures(await evaluate('scripted'));
  } catch (e) {
    console.warn(`${game}: no scripted baseline (${e instanceof Error ? e.message : String(e)})`);
  }
  const n = seeds.length;
  const human = entry.manifest.humanReference.score;
  return {
    game,
    steps,
    evalMode: run.evaluation.mode,
    observation: run.observation,
    ppo,
    ppoOtherMode,
    random,
    randomDecisions,
    actions: run.actions.kind,
    scripted,
    human,
    ppoHumanNormalised: humanNormalised(ppo.mean, human),
    beatsRandom: ppo.mean - random.mean > 2 * seDiff(ppo, random, n),
    matchesScripted: scripted ? ppo.mean - scripted.mean >= -2 * seDiff(ppo, scripted, n) : null,
    trainSeconds,
    wallSeconds: (performance.now() - started) / 1000,
    trainStepsPerSec: steps / trainSeconds,
    gymStepsPerSec,
    // Under macro actions the unit of work is the decision (its keys cost little beside it): a policy
    // that prefers short drops runs fewer keys per second than random drops on the same env.
    trainVsGymPerDecision: macro ? env.decisions / trainSeconds / gymDecisionsPerSec : null,
    keysPerDecision: macro ? { probe: round(probeKeysPerDecision, 2), training: round(steps / Math.max(1, env.decisions), 2) } : null,
    envShareOfTraining: env.seconds / trainSeconds,
    outDir,
  };
}
