import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { GAMES_DIR, ROOT } from '../paths';
import { ActionSet, describeActionSet, gameSpecificActions } from '../actions';
import { PixelOptions } from '../env/options';
import { PpoConfigSchema, type PpoConfigInput } from './config';

/**
 * A game's training preset, games/<id>/train.json: the PPO hyperparameters and training
 * choices measured to work on that game. `arcade-gym train --game <id>` and `npm run bench:learn`
 * start from it; flags and --config override it. Only the values a preset names are kept
 * (everything else stays at its default), so a preset reads as "what differs for this game".
 */

/** How a trained policy picks its action at evaluation: argmax, or a draw from the policy. */
export const EvaluationMode = z.enum(['greedy', 'sample'], {
  error: (i) => `evaluation mode must be greedy or sample, got "${String(i.input)}"`,
});
export type EvaluationMode = z.infer<typeof EvaluationMode>;

/** The training choices a preset can make; the CLI's TrainCommandConfig is built from these fields (one source of truth). */
export const trainingChoiceFields = {
  /** What the network reads: the verifier's feature vector, or pixels. */
  observation: z.enum(['vector', 'pixels'], { error: (i) => `--observation must be vector or pixels, got "${String(i.input)}"` }).default('vector'),
  /** Pixel observations: 84×84 grayscale bytes by default (scaled by 1/255 in the network's encoder); `grayscale: false` reads RGB. */
  pixels: PixelOptions,
  /** Env steps to train for (the algorithm's totalTimesteps). */
  totalTimesteps: z.number().int().positive().default(20_000),
  /** Game pages (or batched instances) stepped together. */
  numEnvs: z.number().int().positive().default(4),
  /** Pixel observations: the last `frameStack` frames, oldest first (1: no stacking). */
  frameStack: z.number().int().min(1).max(16).default(1),
  /**
   * What PPO's policy picks among: the game's preset keys, or macro decisions carried out with
   * them (gym/actions: `{ "kind": "placement" }` for Tetris). Episodes still record one key per step;
   * totalTimesteps counts those primitive steps.
   */
  actions: ActionSet.default({ kind: 'preset' }),
};

/**
 * The actions a run's policy has: afterstates are a vector observation, so pixels read over an
 * afterstate action set leave the policy reading pixels over the same actions (TrainCommandConfig).
 */
export function policyActions(actions: ActionSet, observation: 'vector' | 'pixels'): ActionSet {
  if (observation !== 'pixels' || actions.observation !== 'afterstates') return actions;
  const { observation: _afterstates, ...rest } = actions;
  return rest;
}

/** The evaluation after training: these agents and the trained one on held-out seeds. */
export const EvaluationChoices = z.strictObject({
  /** Held-out episodes per agent: 20 make a difference of two standard errors a fair test between agents. */
  episodes: z.number().int().positive().default(20),
  /**
   * 'sample' for games where an action can change nothing (a 2048 move into a wall, a bump in a maze):
   * the argmax policy repeats it until the step budget runs out (gym/ppo/README.md, the general defaults).
   */
  mode: EvaluationMode.default('greedy'),
  /** Episode i uses seedBase + seed × seedStride + i: far from any training seed. */
  seedBase: z.number().int().min(0).default(1_000_000),
  seedStride: z.number().int().positive().default(100),
  baselines: z.array(z.string().min(1)).default(['random', 'scripted']),
});

const TrainingChoices = z.strictObject({ ...trainingChoiceFields, evaluation: EvaluationChoices.prefault({}) });

/** Keys the run itself decides: a preset naming them would be a mistake, not a choice. */
const RUN_OWNED = ['seed', 'totalTimesteps'] as const;

const plainObject = z.record(z.string(), z.unknown());

/** Checks a partial input against a full schema (all defaulted); its issues keep their paths (under the field's own). */
function validateAgainst(schema: z.ZodType) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const r = schema.safeParse(value);
    if (!r.success) for (const issue of r.error.issues) ctx.addIssue(issue as never);
  };
}

/** Why these values: the measurement behind them, and whether the game learns with them (lines of text). */
const Notes = z.union([z.string(), z.array(z.string())]).optional();

/** Any PpoConfig fields (nested ones partially); seed and totalTimesteps belong to the run (training.totalTimesteps). */
const PresetPpo = plainObject
  .superRefine(validateAgainst(PpoConfigSchema))
  .superRefine((v, ctx) => {
    for (const k of RUN_OWNED) {
      if (k in v) ctx.addIssue({ code: 'custom', path: [k], message: `ppo.${k} is the run's own; set training.totalTimesteps or --seed instead` });
    }
  })
  .default({});

/** The CLI's choices (observation, numEnvs, totalTimesteps, frameStack, evaluation). */
const PresetTraining = plainObject.superRefine(validateAgainst(TrainingChoices)).default({});

/**
 * `true` for a game-specific preset: its policy acts through the game's own planner or reads the
 * game's own features (games/<id>/decisions.ts), not only the verifier's vector over the preset's
 * keys. Declared so that a reader of the file sees it; checked against what the preset's actions use.
 */
const GameSpecific = z.boolean().optional();

/** Whether `training` (a preset's layer, as merged) is game-specific, as its actions and observation make it. */
function usesGameSpecific(training: Record<string, unknown>): { uses: boolean; actions: ActionSet } | null {
  const actions = ActionSet.optional().safeParse(training.actions);
  if (!actions.success) return null; // reported at training.actions
  const used = policyActions(actions.data ?? { kind: 'preset' }, training.observation === 'pixels' ? 'pixels' : 'vector');
  return { uses: gameSpecificActions(used), actions: used };
}

function checkGameSpecific(declared: boolean | undefined, training: Record<string, unknown>, path: (string | number)[], ctx: z.RefinementCtx): void {
  const used = usesGameSpecific(training);
  if (!used || (declared ?? false) === used.uses) return;
  ctx.addIssue({
    code: 'custom',
    path,
    message: used.uses
      ? `must be true: training.actions ${describeActionSet(used.actions)} are the game's own decisions (a game-specific preset)`
      : "must be false or absent: the policy reads the verifier's vector over the preset's keys",
  });
}

export const TrainPreset = z
  .strictObject({
    notes: Notes,
    gameSpecific: GameSpecific,
    ppo: PresetPpo,
    training: PresetTraining,
    /**
     * What changes when the run reads pixels (the preset's own observation, or --observation pixels):
     * merged over `ppo` and `training` then, so one file holds both a game's vector and its pixel
     * settings (a CNN's size and learning rate, frame stacking) and each is used where it was measured.
     * Its own `gameSpecific` says whether the pixel run is game-specific.
     */
    pixels: z.strictObject({ notes: Notes, gameSpecific: GameSpecific, ppo: PresetPpo, training: PresetTraining }).optional(),
  })
  .superRefine((p, ctx) => {
    checkGameSpecific(p.gameSpecific, p.training, ['gameSpecific'], ctx);
    if (p.pixels) checkGameSpecific(p.pixels.gameSpecific, pixelTraining(p.training, p.pixels.training), ['pixels', 'gameSpecific'], ctx);
  });
export type TrainPreset = z.infer<typeof TrainPreset>;

/** Parses a preset; the error names the file and every wrong field. */
export function parseTrainPreset(input: unknown, source = 'train preset'): TrainPreset {
  const r = TrainPreset.safeParse(input);
  if (!r.success) throw new Error(`${source} is invalid:\n${z.prettifyError(r.error)}`);
  return r.data;
}

/**
 * The preset a run with this observation starts from: `observation` is the run's flag (undefined:
 * the preset's own choice); when the run reads pixels, the `pixels` layer is merged in.
 */
export function presetForObservation(preset: TrainPreset, observation: unknown): TrainPreset {
  const reads = observation ?? preset.training.observation ?? 'vector';
  if (reads !== 'pixels' || !preset.pixels) return preset;
  return {
    notes: preset.notes,
    gameSpecific: preset.pixels.gameSpecific,
    ppo: mergeLayers(preset.ppo, preset.pixels.ppo),
    training: pixelTraining(preset.training, preset.pixels.training),
  };
}

/** A preset's training choices under its pixel layer. */
function pixelTraining(training: Record<string, unknown>, pixels: Record<string, unknown>): Record<string, unknown> {
  return mergeLayers(training, { observation: 'pixels' }, pixels);
}

/** Where a game's preset lives: beside its manifest (games/<id>/ or games-external/<id>/). */
export function trainPresetPath(gameId: string): string | null {
  for (const dir of [GAMES_DIR, path.join(ROOT, 'games-external')]) {
    const file = path.join(dir, gameId, 'train.json');
    if (existsSync(file)) return file;
  }
  return null;
}

/** The game's preset, or an empty one (general defaults) when it has none. */
export function loadTrainPreset(gameId: string): { preset: TrainPreset; file: string | null } {
  const file = trainPresetPath(gameId);
  if (!file) return { preset: parseTrainPreset({}), file: null };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${path.relative(ROOT, file)} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { preset: parseTrainPreset(json, path.relative(ROOT, file)), file };
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Later layers win; nested objects merge key by key, arrays and scalars are replaced; undefined never overrides. */
export function mergeLayers<T extends Record<string, unknown>>(...layers: (Record<string, unknown> | undefined)[]): T {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [k, v] of Object.entries(layer)) {
      if (v === undefined) continue;
      out[k] = isPlain(v) && isPlain(out[k]) ? mergeLayers(out[k] as Record<string, unknown>, v) : v;
    }
  }
  return out as T;
}

/**
 * The PPO config input for a run: the preset's values, then the user's --config, with the
 * run's seed and budget. A rollout longer than the budget allows (a preset's 128 steps × 8 envs
 * in a 256-step smoke run) is shortened so that the run still makes one update.
 */
export function resolvePpoInput(opts: {
  preset: TrainPreset;
  overrides?: Record<string, unknown>;
  seed: number;
  totalTimesteps: number;
  numEnvs: number;
  /** numSteps when neither the preset nor the overrides give one. */
  fallbackNumSteps: number;
}): { input: PpoConfigInput; shortenedRollout: number | null } {
  const merged = mergeLayers<Record<string, unknown>>(
    { seed: opts.seed, totalTimesteps: opts.totalTimesteps, numSteps: opts.fallbackNumSteps },
    opts.preset.ppo,
    opts.overrides,
  );
  const perEnv = Math.max(1, Math.floor(Number(merged.totalTimesteps) / opts.numEnvs));
  const numSteps = Number(merged.numSteps);
  const shortenedRollout = Number.isFinite(numSteps) && numSteps > perEnv ? perEnv : null;
  if (shortenedRollout !== null) merged.numSteps = shortenedRollout;
  return { input: merged as PpoConfigInput, shortenedRollout };
}
