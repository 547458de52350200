import type { CatalogEntry } from '../catalog-schema';
import type { DecisionFeatures, MacroPlanner } from '../core/wrappers/macro-action';
import { ArcadeGymError } from '../errors';
import type { GameManifest } from '../schema/manifest';
import { type ActionSet, describeActionSet, gameSpecificActions } from './action-set';

/**
 * What a game's decisions module (games/<id>/decisions.ts) default-exports: its own macro
 * decisions and afterstate features, by action set kind. They are the game's code, beside its
 * rules module and scripted agent; the gym finds them through the catalog (`decisions` in the
 * game's entry, recorded by `npm run build:games`) and never imports them by name.
 */
export interface GameDecisions {
  /** Macro decisions by ActionSet kind (not 'preset'): the planner that carries each decision out with the preset's keys. */
  readonly planners?: Readonly<Record<string, (manifest: GameManifest) => MacroPlanner<number>>>;
  /**
   * Afterstate features by ActionSet kind, for `observation: 'afterstates'`: what each decision
   * would leave behind. 'preset': of the preset's own keys, one row per key in the preset's order.
   */
  readonly afterstates?: Readonly<Record<string, (manifest: GameManifest) => DecisionFeatures>>;
}

/** A game as the catalog lists it, as far as its action sets go. */
export type GameWithDecisions = Pick<CatalogEntry, 'manifest' | 'decisions'>;

const FIELDS = ['planners', 'afterstates'] as const;

/**
 * The action set kinds a decisions module's default export offers, after checking its shape (the
 * build records them in the catalog). `source` names the file in the error.
 */
export function offeredKinds(mod: unknown, source: string): { planners: string[]; afterstates: string[] } {
  const fail = (why: string): never => {
    throw new Error(`${source}: its default export must be the game's decisions ({ planners?, afterstates? }, gym/actions/README.md); ${why}`);
  };
  if (typeof mod !== 'object' || mod === null || Array.isArray(mod)) return fail(`got ${mod === null ? 'null' : typeof mod}`);
  const extra = Object.keys(mod).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (extra.length) fail(`unknown ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
  const kinds = (field: (typeof FIELDS)[number]): string[] => {
    const table = (mod as Record<string, unknown>)[field];
    if (table === undefined) return [];
    if (typeof table !== 'object' || table === null) return fail(`${field} must be an object of factories by action set kind`);
    for (const [k, f] of Object.entries(table)) if (typeof f !== 'function') fail(`${field}.${k} must be a function of the manifest`);
    return Object.keys(table).sort();
  };
  const planners = kinds('planners');
  const afterstates = kinds('afterstates');
  if (planners.includes('preset')) fail('"preset" is the game\'s own keys, not a planner');
  const orphan = afterstates.filter((k) => k !== 'preset' && !planners.includes(k));
  if (orphan.length) fail(`afterstates for ${orphan.join(', ')}, which it does not plan`);
  if (planners.length + afterstates.length === 0) fail('it offers no action set');
  return { planners, afterstates };
}

/** Every action set a game offers: its preset's keys, and what its decisions module adds. */
export function actionSetsOf(game: GameWithDecisions): ActionSet[] {
  const d = game.decisions;
  return [
    { kind: 'preset' },
    ...(d?.afterstates.includes('preset') ? [{ kind: 'preset', observation: 'afterstates' as const }] : []),
    ...(d?.planners ?? []).flatMap((kind) => [{ kind }, ...(d?.afterstates.includes(kind) ? [{ kind, observation: 'afterstates' as const }] : [])]),
  ];
}

/** Whether the game offers this action set (the verifier's features over any of its kinds count as the kind). */
export function offersActionSet(game: GameWithDecisions, actions: ActionSet): boolean {
  const want = describeActionSet(actions);
  return actionSetsOf(game).some((a) => describeActionSet(a) === want);
}

/** The error for an action set a game does not offer, listing those it does. */
export function notOffered(game: GameWithDecisions, actions: ActionSet): ArcadeGymError {
  return new ArcadeGymError(
    'INVALID_OPTIONS',
    `actions ${describeActionSet(actions)} is not an action set of ${game.manifest.id}; it offers ${actionSetsOf(game).map(describeActionSet).join(', ')}` +
      ' (a game adds its own in games/<id>/decisions.ts, see gym/actions/README.md)',
  );
}

/** The preset's keys as one-key decisions, for a policy that observes what each key leads to. */
function presetKeyPlanner(manifest: GameManifest, decisionFeatures: DecisionFeatures): MacroPlanner<number> {
  return {
    numDecisions: manifest.preset.length,
    names: manifest.preset.map((p) => p.name),
    decisionFeatures,
    singleKey: true,
    start(decision) {
      let pressed = false;
      return {
        next() {
          if (pressed) return null;
          pressed = true;
          return decision;
        },
      };
    },
  };
}

/**
 * The planner an action set needs on a game, from the game's loaded decisions module, or null for
 * the game's own preset read through the verifier's features (which needs no module).
 */
export function plannerFrom(actions: ActionSet | undefined, game: GameWithDecisions, decisions: GameDecisions | null): MacroPlanner<number> | null {
  if (!actions || !gameSpecificActions(actions)) return null;
  const { manifest } = game;
  const features = actions.observation === 'afterstates' ? decisions?.afterstates?.[actions.kind] : undefined;
  const plan = actions.kind === 'preset' ? undefined : decisions?.planners?.[actions.kind];
  if ((actions.observation === 'afterstates' && !features) || (actions.kind !== 'preset' && !plan)) throw notOffered(game, actions);
  const decisionFeatures = features?.(manifest);
  if (!plan) return presetKeyPlanner(manifest, decisionFeatures!);
  const planner = plan(manifest);
  return decisionFeatures ? { ...planner, decisionFeatures } : planner;
}
