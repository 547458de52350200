import type { ScriptedPolicy } from '../../gym/agents';
import type { FreeTheKeyVerifierState } from '../../verifiers/free-the-key';
import { solve, type Block, type Move } from './logic';

/**
 * Solves the current position optimally (breadth-first search over one-cell slides, from the
 * game's rules module), then selects the block of the first slide with whichever of
 * next/previous reaches it sooner and slides it. Plans are cached by position.
 */
const NEXT = 0,
  PREV = 1,
  UP = 2,
  DOWN = 3,
  LEFT = 4,
  RIGHT = 5;
const plans = new Map<string, Move | null>();

const policy: ScriptedPolicy<FreeTheKeyVerifierState> = (s) => {
  const blocks: Block[] = s.blocks.map((b) => ({ horiz: b.horiz, len: b.len, line: b.horiz ? b.row : b.col }));
  const pos = s.blocks.map((b) => (b.horiz ? b.col : b.row));
  const key = JSON.stringify([blocks, pos]);
  let move = plans.get(key);
  if (move === undefined) {
    if (plans.size > 50000) plans.clear();
    const path = solve(blocks, pos);
    move = path && path.length ? path[0] : null;
    if (path) {
      // Cache every position along the plan.
      const p = pos.slice();
      for (const m of path) {
        plans.set(JSON.stringify([blocks, p]), m);
        p[m[0]] += m[1];
      }
    }
  }
  if (!move) return NEXT;
  const [bi, delta] = move;
  if (s.selected !== bi) {
    const n = s.blocks.length;
    const forward = (bi - s.selected + n) % n;
    return forward <= n - forward ? NEXT : PREV;
  }
  if (blocks[bi].horiz) return delta > 0 ? RIGHT : LEFT;
  return delta > 0 ? DOWN : UP;
};
export default policy;
