import type { ScriptedPolicy } from '../../gym/agents';
import type { SokobanVerifierState } from '../../verifiers/sokoban';
import { OPPOSITE, isDeadlock, solve, step, type Dir } from './logic';

/**
 * Plans with the push-level solver from the game's rules module and follows the plan. Plans
 * are cached by position (map, boxes, player), so the solver runs once per level attempt, not
 * once per step. When the solver proves a position unsolvable the agent restarts the level;
 * when it runs out of budget it makes a move that does not deadlock a box.
 */
const RESTART = 4;
const plans = new Map<string, Dir>();

const keyOf = (s: SokobanVerifierState, boxes: number[], player: number) => `${s.map.join('/')}|${boxes.join(',')}|${player}`;

const policy: ScriptedPolicy<SokobanVerifierState> = (s, ctx) => {
  const w = s.w;
  const walls = s.map
    .join('')
    .split('')
    .map((ch) => ch === '#');
  const goals = s.goals.map(([x, y]) => y * w + x);
  const boxes = s.boxes.map(([x, y]) => y * w + x);
  const player = s.player[1] * w + s.player[0];
  const key = keyOf(s, boxes, player);
  let next = plans.get(key);
  if (next === undefined) {
    if (plans.size > 20000) plans.clear();
    const r = solve(walls, w, goals, boxes, player, 40000);
    if (r.moves && r.moves.length > 0 && r.moves.length <= s.moveLimit - s.moves) {
      // Remember the move for every position along the plan.
      let at = player;
      const bx = boxes.slice();
      for (const d of r.moves) {
        plans.set(keyOf(s, bx, at), d);
        const to = step(w, at, d);
        const bi = bx.indexOf(to);
        if (bi >= 0) bx[bi] = step(w, to, d);
        at = to;
      }
      next = r.moves[0];
    } else if (r.exhausted || (r.moves && r.moves.length > s.moveLimit - s.moves)) {
      return RESTART;
    } else {
      // No plan within budget: any move that does not push a box into a dead spot.
      const goalSet = new Set(goals);
      const safe: Dir[] = [];
      for (let d = 0 as Dir; d < 4; d = (d + 1) as Dir) {
        const to = step(w, player, d);
        if (walls[to]) continue;
        const bi = boxes.indexOf(to);
        if (bi < 0) {
          safe.push(d);
          continue;
        }
        const beyond = step(w, to, d);
        if (walls[beyond] || boxes.includes(beyond)) continue;
        const moved = boxes.slice();
        moved[bi] = beyond;
        if (!isDeadlock(walls, w, goalSet, new Set(moved), beyond)) safe.push(d);
      }
      if (!safe.length) return RESTART;
      next = safe[Math.floor(ctx.random() * safe.length)];
      void OPPOSITE;
    }
  }
  return next;
};
export default policy;
