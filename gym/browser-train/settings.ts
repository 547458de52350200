import { pixelNetwork, rolloutLength, TrainCommandConfig, trainConfigProblem } from '../ppo/train-settings';
import { parsePpoConfig } from '../ppo/config';
import { mergeLayers, parseTrainPreset, presetForObservation, resolvePpoInput } from '../ppo/preset';
import type { BrowserRunSettings } from './trainer';

/** What a visitor chooses on the page: the `arcade-gym train` flags that make sense there. */
export interface RunChoices {
  totalTimesteps?: number;
  numEnvs?: number;
  seed?: number;
  backend?: 'webgpu' | 'cpu' | 'auto';
  /** PPO config overrides: what `--config ppo.json` holds (the preset's values, then these). */
  config?: Record<string, unknown>;
}

/**
 * A run's settings from the game's preset (games/<id>/train.json, as JSON; null: none) and the
 * visitor's choices, resolved exactly as `arcade-gym train --game <id> --steps … --envs … --seed … --config …`
 * resolves its flags (cli/commands/train.ts: defaults → preset → flags; the command's schema is the
 * CLI's own), so the same choices give the CLI's config.json and the same run.
 */
export function resolveRunSettings(game: string, presetJson: unknown, presetPath: string | null, choices: RunChoices = {}): BrowserRunSettings {
  const preset = presetForObservation(parseTrainPreset(presetJson ?? {}, presetPath ?? 'train preset'), undefined);
  const flags = { game, backend: choices.backend, totalTimesteps: choices.totalTimesteps, seed: choices.seed, numEnvs: choices.numEnvs };
  const parsed = TrainCommandConfig.safeParse(mergeLayers(preset.training, flags));
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`).join('\n'));
  const c = parsed.data;
  const problem = trainConfigProblem(c);
  if (problem) throw new Error(problem);
  if (c.algo !== 'ppo') throw new Error(`in-page training runs PPO; the preset asks for ${c.algo}`);
  const { input } = resolvePpoInput({
    preset,
    overrides: mergeLayers({ network: pixelNetwork(c) }, choices.config ?? {}),
    seed: c.seed,
    totalTimesteps: c.totalTimesteps,
    numEnvs: c.numEnvs,
    fallbackNumSteps: rolloutLength(c),
  });
  return { command: c, preset: presetPath, ppo: parsePpoConfig(input) };
}
