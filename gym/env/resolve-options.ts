/**
 * One reading of an env's options: validated, with the game they name, the observation kinds, the
 * step budget and length, and the spaces they give. The single env, the batched vector env and
 * makeVectorEnv all read their options through it.
 */
import { getGame } from '../catalog';
import type { CatalogEntry } from '../catalog-schema';
import { ArcadeGymError } from '../errors';
import type { Space } from './observation';
import { EnvOptions, type EnvOptionsInput, type ObservationKind } from './options';

export interface ResolvedEnvOptions {
  options: EnvOptions;
  game: CatalogEntry;
  observationKinds: ReadonlySet<ObservationKind>;
  maxSteps: number;
  msPerStep: number;
  actionSpace: Space;
  observationSpace: Space;
}

export function resolveEnvOptions(input: EnvOptionsInput): ResolvedEnvOptions {
  const parsed = EnvOptions.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArcadeGymError('INVALID_OPTIONS', `Invalid env option "${issue.path.join('.')}": ${issue.message}`);
  }
  const options = parsed.data;
  const game = getGame(options.game);
  const m = game.manifest;
  const observationKinds = new Set(Array.isArray(options.observation) ? options.observation : [options.observation]);
  const spaces: Record<string, Space> = {};
  if (observationKinds.has('state')) spaces.state = { type: 'Json', description: `verifier state of ${m.id}` };
  if (observationKinds.has('vector'))
    spaces.vector = { type: 'Box', shape: [game.featureNames.length], dtype: 'float32', low: -Infinity, high: Infinity, names: game.featureNames };
  if (observationKinds.has('pixels')) {
    const p = options.pixels;
    spaces.pixels = { type: 'Box', shape: [p.height, p.width, p.grayscale ? 1 : 3], dtype: 'uint8', low: 0, high: 255 };
  }
  if (observationKinds.has('screenshot')) spaces.screenshot = { type: 'Image', format: options.screenshot.type };
  return {
    options,
    game,
    observationKinds,
    maxSteps: options.maxSteps ?? m.stepBudget,
    msPerStep: options.msPerStep ?? m.msPerStep,
    actionSpace: { type: 'Discrete', n: m.preset.length, names: m.preset.map((p) => p.name) },
    observationSpace: { type: 'Dict', spaces },
  };
}
