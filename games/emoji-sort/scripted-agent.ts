import type { ScriptedPolicy } from '../../gym/agents';
import type { EmojiSortVerifierState } from '../../verifiers/emoji-sort';
import { canMove, legalMoves, solve, topRun, type Move } from './logic';

/**
 * Solves the current position with the game's solver (shortest solution by A*, a depth-first
 * fallback) and plays its first move as two clicks: the source tube, then the target. A tube
 * picked for something else is put down first (clicking it again). Plans are cached by position.
 */
const plans = new Map<string, Move | null>();

const policy: ScriptedPolicy<EmojiSortVerifierState> = (s) => {
  const key = JSON.stringify(s.tubes);
  let move = plans.get(key);
  if (move === undefined) {
    if (plans.size > 50000) plans.clear();
    const path = solve(s.tubes, 40000);
    if (path && path.length) {
      let t = s.tubes.map((x) => x.slice());
      for (const m of path) {
        plans.set(JSON.stringify(t), m);
        const { count } = topRun(t[m[0]]);
        const n = Math.min(count, 4 - t[m[1]].length);
        for (let i = 0; i < n; i++) t[m[1]].push(t[m[0]].pop()!);
        t = t.map((x) => x.slice());
      }
      move = path[0];
    } else {
      // No plan: a move onto a matching face if there is one, else any legal move.
      const moves = legalMoves(s.tubes);
      move = moves.find(([a, b]) => s.tubes[b].length > 0 && canMove(s.tubes, a, b)) ?? moves[0] ?? null;
      plans.set(key, move);
    }
  }
  if (!move) return 0;
  const [from, to] = move;
  if (s.selected === from) return to;
  if (s.selected >= 0) return s.selected;
  return from;
};
export default policy;
