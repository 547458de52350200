import { z } from 'zod';
import { ActionSet, gameSpecificActions, MacroDriver, macroPlannerFor } from '../actions';
import { getGame } from '../catalog';
import { ArcadeGymError } from '../errors';
import { SeededRandom } from '../random/seeded-random';
import type { Agent, AgentContext } from './agent';

// Not strict: `eval` hands every agent the same option bag (a checkpoint, a model endpoint), and random ignores those.
const RandomAgentOptions = z.object({
  /** Uniform over these decisions instead of the preset's keys (e.g. Tetris placements, for comparison with a policy trained over them). */
  actions: ActionSet.optional(),
});

/**
 * Uniform over the game's discrete preset, seeded from the episode seed (the leaderboard's
 * random baseline); with `actions`, uniform over that action set's decisions, each carried out
 * key by key as a policy over them plays.
 */
export function createRandomAgent(options: Record<string, unknown> = {}): Agent {
  const parsed = RandomAgentOptions.safeParse(options);
  if (!parsed.success) throw new ArcadeGymError('INVALID_OPTIONS', `random agent: ${z.prettifyError(parsed.error)}`);
  let rng = new SeededRandom(0);
  let n = 1;
  let driver: MacroDriver | null = null;
  return {
    name: 'random',
    async reset(ctx: AgentContext) {
      rng = new SeededRandom(ctx.seed ^ 0x5eed);
      const { actions } = parsed.data;
      // The game's catalog entry only when the actions need its decisions module (the preset's keys need none).
      const planner = gameSpecificActions(actions) ? await macroPlannerFor(actions, getGame(ctx.manifest.id)) : null;
      driver = planner ? new MacroDriver(planner) : null;
      n = planner ? planner.numDecisions : ctx.manifest.preset.length;
    },
    act({ state }) {
      const draw = () => Math.floor(rng.next() * n);
      return driver ? driver.next({ state }, async () => draw()) : draw();
    },
  };
}
