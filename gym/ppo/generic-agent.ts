import { EvaluationChoices, loadTrainPreset, parseTrainPreset, type TrainPreset } from './preset';

/**
 * The generic agent: one PPO configuration for every game (as ALE's evaluation protocol asks of a
 * baseline), and what `arcade-gym train --game <id>` uses for a game without a preset (`--generic`
 * for any game). It reads only what every env offers every agent: the verifier's `vector`, and the
 * action mask where the game gives one (info.actionMask). Every value is here; none depends on the
 * game. Changing one changes the baseline of every game: re-run `npm run bench:suite-learn` and
 * update its table in gym/ppo/README.md.
 */
export const GENERIC_AGENT_NAME = 'generic' as const;

export const GENERIC_AGENT: TrainPreset = parseTrainPreset(
  {
    ppo: {
      learningRate: 1e-3,
      annealLr: true,
      numSteps: 64,
      numMinibatches: 4,
      updateEpochs: 4,
      gamma: 0.99,
      entCoef: 0.01,
      maskActions: true,
      normalizeReward: { enabled: true },
      normalizeObservation: { enabled: true },
      network: { hidden: [128, 128], activation: 'tanh' },
    },
    training: {
      observation: 'vector',
      numEnvs: 16,
      totalTimesteps: 100_000,
      actions: { kind: 'preset' },
      evaluation: { episodes: 20, mode: 'sample' },
    },
  },
  'the generic agent',
);

/** How the generic agent is evaluated (its policies play the ppo-generic baseline this way). */
export const GENERIC_EVALUATION = EvaluationChoices.parse(GENERIC_AGENT.training.evaluation);

/** Where a run's settings start: a game's own preset (its train.json), or the generic agent. */
export interface StartingPreset {
  preset: TrainPreset;
  /** The game's train.json; null for the generic agent. */
  file: string | null;
  generic: boolean;
}

/** The game's preset when it has one and `generic` is not asked for; the generic agent otherwise. */
export function startingPreset(gameId: string, generic: boolean): StartingPreset {
  if (!generic) {
    const own = loadTrainPreset(gameId);
    if (own.file) return { ...own, generic: false };
  }
  return { preset: GENERIC_AGENT, file: null, generic: true };
}
