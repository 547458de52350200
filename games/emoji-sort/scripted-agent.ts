import type { ScriptedPolicy } from '../../gym/agents';
import type { EmojiSortVerifierState } from '../../verifiers/emoji-sort';
import { TUBES, canMove, legalMoves, solve, topRun, type Move } from './logic';

/**
 * Solves the current position with the game's solver (shortest solution by A*, a depth-first
 * fallback) and plays its first move as one drag of the preset (tube a onto tube b, 56 drags in
 * order a by a). Plans are cached by position.
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
  return dragIndex(move);
};

/** The preset index of the drag that plays `move`: 7 drags per source tube, skipping the tube itself. */
export function dragIndex([from, to]: Move): number {
  return from * (TUBES - 1) + (to < from ? to : to - 1);
}
export default policy;
