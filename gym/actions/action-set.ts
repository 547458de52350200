import { z } from 'zod';

/** What the policy reads: the verifier's features (the default) or each decision's afterstate. */
const AfterstateObservation = z.enum(['verifier', 'afterstates'], { error: 'actions.observation must be verifier or afterstates' }).optional();

/** An action set's name: 'preset' (the game's own keys) or one a game's decisions module plans (its catalog entry lists them). */
const ActionSetKind = z
  .string({ error: 'actions.kind must be a string' })
  .regex(/^[a-z][a-z0-9-]*$/, { error: (i) => `actions.kind must be an action set name (lowercase letters, digits, "-"), got ${JSON.stringify(i.input)}` });

/**
 * What a trained policy's actions are: the game's own preset (one key per step), or a set of
 * macro decisions carried out with those keys (gym/core/wrappers/macro-action.ts), which the
 * game's decisions module (games/<id>/decisions.ts, listed in its catalog entry) plans, e.g.
 * Tetris's `placement`. `observation` 'afterstates': the policy reads what each decision would
 * leave behind, as the game's module computes it, instead of the verifier's features. A training
 * option (games/<id>/train.json `training.actions`), written to config.json, metrics.jsonl's
 * config line and the checkpoint header, so evaluation plays a policy with the actions it was
 * trained with.
 */
export const ActionSet = z.strictObject(
  { kind: ActionSetKind, observation: AfterstateObservation },
  {
    error: (i) =>
      i.code === 'invalid_type' ? `actions must be an object such as {"kind": "preset"} or {"kind": "placement"}, got ${JSON.stringify(i.input)}` : undefined,
  },
);
export type ActionSet = z.infer<typeof ActionSet>;

/**
 * Whether a policy over these actions is game-specific: it acts through a game's planner or reads
 * a game's own features, anything but the preset's keys read through the verifier's vector (the
 * difference ALE draws between RAM and pixels). Such runs say so in train.json, config.json and
 * on the leaderboard.
 */
export function gameSpecificActions(actions: ActionSet | undefined): boolean {
  return !!actions && (actions.kind !== 'preset' || actions.observation === 'afterstates');
}

/** An action set as it is written in presets and messages, e.g. {"kind":"placement","observation":"afterstates"}. */
export function describeActionSet(actions: ActionSet): string {
  return JSON.stringify(actions.observation === 'afterstates' ? { kind: actions.kind, observation: 'afterstates' } : { kind: actions.kind });
}
