import { GENERIC_AGENT, type StartingPreset } from '../ppo/generic-agent';
import { parseTrainPreset } from '../ppo/preset';
import { resolveTraining } from '../ppo/training-run';
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
 * A run's settings from the game's preset (games/<id>/train.json, as JSON; null: the game has none,
 * and the run starts from the generic agent) and the visitor's choices, resolved by the one
 * resolver `arcade-gym train --game <id> --steps … --envs … --seed … --config …` uses
 * (gym/ppo/training-run.ts), so the same choices give the CLI's config.json and the same run.
 */
export function resolveRunSettings(game: string, presetJson: unknown, presetPath: string | null, choices: RunChoices = {}): BrowserRunSettings {
  const start: StartingPreset =
    presetJson === null || presetJson === undefined
      ? { preset: GENERIC_AGENT, file: null, generic: true }
      : { preset: parseTrainPreset(presetJson, presetPath ?? 'train preset'), file: presetPath, generic: false };
  const flags = { game, backend: choices.backend, totalTimesteps: choices.totalTimesteps, seed: choices.seed, numEnvs: choices.numEnvs };
  const r = resolveTraining({ start, flags, overrides: choices.config ?? {} });
  if (!r.ppo) throw new Error(`in-page training runs PPO; the preset asks for ${r.command.algo}`);
  return { command: r.command, preset: r.preset, agent: r.agent, ppo: r.ppo };
}
