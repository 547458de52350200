/**
 * The env `arcade-gym train` and the benches train on: the game's pages under the run's action
 * set, through the one training wrapper stack (gym/ppo/training-env.ts).
 */
import { macroPlannerFor, type MacroPlanner, withDecisions, withVectorDecisions } from '../actions';
import { getGame } from '../catalog';
import type { CatalogEntry } from '../catalog-schema';
import type { PooledEnv } from '../pool/pooled-env';
import { wrapTrainingEnv } from '../ppo/training-env';
import type { TrainCommandConfig } from '../ppo/train-settings';
import { makeVectorEnv } from './make-vector-env';

/**
 * The planner of the run's action set (the game's own, from its decisions module, found through
 * the catalog), or null for the preset's keys read through the verifier's features.
 */
export function runPlanner(c: Pick<TrainCommandConfig, 'actions' | 'game'>, game: CatalogEntry = getGame(c.game)): Promise<MacroPlanner<number> | null> {
  return macroPlannerFor(c.actions, game);
}

/**
 * The vector env a run trains on under the run's planner (runPlanner): the game's pages (one per
 * env under macro actions, which take a varying number of steps per decision; batched pages for
 * one-key decisions, which step together like the preset's keys), through wrapTrainingEnv.
 */
export function makeTrainingEnv(c: TrainCommandConfig, planner: MacroPlanner<number> | null) {
  const macro = planner && !planner.singleKey ? planner : null;
  const venv = makeVectorEnv({
    game: c.game,
    numEnvs: c.numEnvs,
    seed: c.seed,
    observation: [c.observation],
    pixels: c.pixels,
    autoreset: c.autoreset,
    ...(macro ? { batched: false, wrapEnv: (e: PooledEnv) => withDecisions(e, macro) } : {}),
  });
  return wrapTrainingEnv(planner?.singleKey ? withVectorDecisions(venv, planner) : venv, c);
}
