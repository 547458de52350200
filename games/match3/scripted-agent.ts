import type { ScriptedPolicy } from '../../gym/agents';
import type { Match3VerifierState } from '../../verifiers/match3';
import { neighbourPairs, trySwap, type Board } from './logic';

/**
 * Greedy swapper: tries every swap on the current board with the game's own rules (the refill
 * left empty, since it is unknown), values it by the points it clears plus a bonus for each
 * special it makes, and divides by the steps needed to reach it (cursor moves + the swap).
 * Then it walks the cursor there and swaps.
 */
const UP = 0,
  DOWN = 1,
  LEFT = 2,
  RIGHT = 3,
  SWAP_UP = 4,
  SWAP_DOWN = 5,
  SWAP_LEFT = 6,
  SWAP_RIGHT = 7;

const policy: ScriptedPolicy<Match3VerifierState> = (s) => {
  const board: Board = s.colours.map((row, r) => row.map((c, k) => (c < 0 ? -1 : c + 8 * s.specials[r][k])));
  const [cr, cc] = s.cursor;
  let best: { value: number; at: [number, number]; action: number } | null = null;
  for (const [a, b] of neighbourPairs()) {
    const res = trySwap(board, a, b, null);
    if (!res) continue;
    const gain = res.points + 40 * res.specialsMade;
    // Either end of the pair can start the swap.
    const down = b[0] > a[0];
    const ends: [[number, number], number][] = [
      [a, down ? SWAP_DOWN : SWAP_RIGHT],
      [b, down ? SWAP_UP : SWAP_LEFT],
    ];
    for (const [at, action] of ends) {
      const steps = Math.abs(at[0] - cr) + Math.abs(at[1] - cc) + 1;
      const value = gain / steps;
      if (!best || value > best.value + 1e-9) best = { value, at, action };
    }
  }
  if (!best) return UP;
  const [tr, tc] = best.at;
  if (tr < cr) return UP;
  if (tr > cr) return DOWN;
  if (tc < cc) return LEFT;
  if (tc > cc) return RIGHT;
  return best.action;
};
export default policy;
