import type { ScriptedPolicy } from '../../gym/agents';
import type { SokobanVerifierState } from '../../verifiers/sokoban';
import { PUSH_CELLS, frameOffset, isDeadlock, pushAction, pushMoves, pushesOfPlan, solve, step, type Dir } from './logic';

/**
 * Plans with the push-level solver from the game's rules module and plays the plan's pushes as
 * the preset's box drags. Plans are cached by position (map, boxes, player), so the solver runs
 * once per level attempt, not once per step. When the solver proves a position unsolvable, or
 * its plan needs more moves than the level has left, the agent restarts the level; when it runs
 * out of budget it makes a push that does not deadlock a box.
 */
const RESTART = PUSH_CELLS * PUSH_CELLS * 4;
const plans = new Map<string, number>();

const keyOf = (s: SokobanVerifierState, boxes: number[], player: number) => `${s.map.join('/')}|${boxes.join(',')}|${player}`;

const policy: ScriptedPolicy<SokobanVerifierState> = (s, ctx) => {
  const w = s.w;
  const [ox, oy] = frameOffset(s.w, s.h);
  const push = (box: number, d: Dir) => pushAction((box % w) + ox, Math.floor(box / w) + oy, d);
  const walls = s.map
    .join('')
    .split('')
    .map((ch) => ch === '#');
  const goals = s.goals.map(([x, y]) => y * w + x);
  const boxes = s.boxes.map(([x, y]) => y * w + x);
  const player = s.player[1] * w + s.player[0];
  const key = keyOf(s, boxes, player);
  const planned = plans.get(key);
  if (planned !== undefined) return planned;
  if (plans.size > 20000) plans.clear();
  const r = solve(walls, w, goals, boxes, player, 40000);
  if (r.moves && r.moves.length > 0 && r.moves.length <= s.moveLimit - s.moves) {
    // Remember the plan's next push for every position it passes before a push.
    const pushes = pushesOfPlan(w, boxes, player, r.moves);
    for (const p of pushes) plans.set(keyOf(s, p.boxes, p.player), push(p.box, p.d));
    return push(pushes[0].box, pushes[0].d);
  }
  if (r.exhausted || r.moves) return RESTART;
  // No plan within budget: any push that does not put a box in a dead spot.
  const goalSet = new Set(goals);
  const safe: number[] = [];
  for (const b of boxes) {
    for (let d = 0 as Dir; d < 4; d = (d + 1) as Dir) {
      if (!pushMoves(walls, w, boxes, player, b, d)) continue;
      const beyond = step(w, b, d);
      const moved = boxes.map((x) => (x === b ? beyond : x));
      if (!isDeadlock(walls, w, goalSet, new Set(moved), beyond)) safe.push(push(b, d));
    }
  }
  if (!safe.length) return RESTART;
  return safe[Math.floor(ctx.random() * safe.length)];
};
export default policy;
