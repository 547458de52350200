import type { ScriptedPolicy } from '../../gym/agents';
import type { PlatformerVerifierState } from '../../verifiers/platformer';
import { JUMP, JUMP_RIGHT, LEFT, NOOP, RIGHT, explore, safeEnd, simFromState, stepTiming } from './simulate';

/**
 * Model-predictive runner: it rebuilds the course around the player from the verifier state and
 * simulates every sequence of three preset actions with the game's own physics (simulate.ts),
 * then checks that the end state is not doomed (still able to land). It plays the first action
 * of the sequence that ends furthest right, counting coins and stomps as the score does, and
 * avoids any sequence that loses a life.
 */

/** The search's order, which breaks ties: plain running first. */
const ACTIONS = [RIGHT, JUMP_RIGHT, JUMP, NOOP, LEFT];
const DEPTH = 3;

const policy: ScriptedPolicy<PlatformerVerifierState> = (state, ctx) => {
  if (state.gameOver || state.dying) return NOOP;
  const timing = stepTiming(ctx.manifest.msPerStep);
  let best = { value: -Infinity, action: RIGHT };
  explore(simFromState(state), DEPTH, timing, ACTIONS, (s, first) => {
    let value = s.p.x + s.score;
    if (s.dead) value = -1000 + s.frames;
    else if (!safeEnd(s)) value -= 500;
    // Ties: prefer plain running, then earlier actions in ACTIONS order.
    if (value > best.value + 1e-6) best = { value, action: first };
  });
  return best.action;
};
export default policy;
