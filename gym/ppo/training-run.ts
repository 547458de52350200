import { gameSpecificActions } from '../actions';
import { GENERIC_AGENT_NAME, type StartingPreset } from './generic-agent';
import { parseGrpoConfig, parsePpoConfig, type GrpoConfig, type PpoConfig } from './config';
import { mergeLayers, presetForObservation, resolvePpoInput } from './preset';
import { pixelNetwork, rolloutLength, TrainCommandConfig, trainConfigProblem, type TrainCommandConfigInput } from './train-settings';

/**
 * Every setting of a training run, resolved from its sources in one order, by one function that
 * `arcade-gym train`, the benches and the in-page trainer all call (CleanRL's `Args`, resolved):
 *
 *   1. the defaults (TrainCommandConfig, PpoConfigSchema / GrpoConfigSchema);
 *   2. where the run starts: the game's preset (games/<id>/train.json) or the generic agent
 *      (gym/ppo/generic-agent.ts), with its `pixels` layer when the run reads pixels;
 *   3. the command's flags (game, steps, seed, envs, observation, evaluation, …);
 *   4. `--config`'s algorithm overrides (nested objects merge key by key);
 *   5. what the run itself fixes: the network's pixel settings, the rollout length when nothing
 *      gave one, a rollout shortened to fit a small budget, GRPO over the preset's keys.
 */
export interface TrainingSources {
  start: StartingPreset;
  /** The train command's own choices (undefined: not given), `game` included. */
  flags: Record<string, unknown> & { game: string };
  /** The algorithm's overrides (`--config ppo.json`). */
  overrides?: Record<string, unknown>;
}

export interface ResolvedTraining {
  command: TrainCommandConfig;
  /** The preset file the run started from (relative to the checkout), null for the generic agent. */
  preset: string | null;
  agent: typeof GENERIC_AGENT_NAME | 'preset';
  /** The policy acts through the game's own decisions (gym/actions): a game-specific run. */
  gameSpecific: boolean;
  ppo?: PpoConfig;
  grpo?: GrpoConfig;
  /** What the resolution changed and the user may want to know (a shortened rollout, GRPO on keys). */
  notes: string[];
}

/** Thrown for settings that cannot go together or do not parse; the message names every field. */
export class TrainingSettingsError extends Error {}

export function resolveTraining(s: TrainingSources, presetPath: (file: string) => string = (f) => f): ResolvedTraining {
  const notes: string[] = [];
  const preset = presetForObservation(s.start.preset, s.flags.observation);
  const parsed = TrainCommandConfig.safeParse(mergeLayers<TrainCommandConfigInput>(preset.training, s.flags));
  if (!parsed.success)
    throw new TrainingSettingsError(parsed.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`).join('\n'));
  let c = parsed.data;
  if (c.algo === 'grpo' && gameSpecificActions(c.actions)) {
    // Macro decisions and afterstate observations are PPO options: GRPO's groups replay whole episodes of preset keys.
    notes.push(`the preset's actions (${JSON.stringify(c.actions)}) are for PPO; GRPO trains on ${c.game}'s preset keys`);
    c = { ...c, actions: { kind: 'preset' } };
  }
  const problem = trainConfigProblem(c);
  if (problem) throw new TrainingSettingsError(problem);
  const overrides = mergeLayers({ network: pixelNetwork(c) }, s.overrides ?? {});
  const common = {
    command: c,
    preset: s.start.file ? presetPath(s.start.file) : null,
    agent: s.start.generic ? GENERIC_AGENT_NAME : ('preset' as const),
    gameSpecific: gameSpecificActions(c.actions),
    notes,
  };
  if (c.algo === 'grpo') return { ...common, grpo: parseGrpoConfig(mergeLayers({ seed: c.seed, totalTimesteps: c.totalTimesteps }, overrides)) };
  const { input, shortenedRollout } = resolvePpoInput({
    preset,
    overrides,
    seed: c.seed,
    totalTimesteps: c.totalTimesteps,
    numEnvs: c.numEnvs,
    fallbackNumSteps: rolloutLength(c),
  });
  if (shortenedRollout !== null) notes.push(`rollouts shortened to ${shortenedRollout} steps per env to fit ${c.totalTimesteps} steps × ${c.numEnvs} envs`);
  return { ...common, ppo: parsePpoConfig(input) };
}

/** The run's settings as config.json and the first line of metrics.jsonl hold them (the same object in the CLI and the page). */
export function configRecord(r: ResolvedTraining) {
  return {
    command: r.command,
    preset: r.preset,
    agent: r.agent,
    gameSpecific: r.gameSpecific,
    ...(r.ppo ? { ppo: r.ppo } : {}),
    ...(r.grpo ? { grpo: r.grpo } : {}),
  };
}
