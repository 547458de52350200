import type { ScriptedPolicy } from '../../gym/agents';
import type { Match3VerifierState } from '../../verifiers/match3';
import { neighbourPairs, trySwap, type Board } from './logic';

/**
 * Greedy swapper: tries every swap on the current board with the game's own rules (the refill
 * left empty, since it is unknown) and makes the one that clears the most points, plus a bonus
 * for each special it makes. Preset index i is the i-th pair of neighbourPairs (each cell with
 * its right then its lower neighbour), the manifest's order, so a swap is one step.
 */
const policy: ScriptedPolicy<Match3VerifierState> = (s) => {
  const board: Board = s.colours.map((row, r) => row.map((c, k) => (c < 0 ? -1 : c + 8 * s.specials[r][k])));
  let best = { value: -1, action: 0 };
  for (const [i, [a, b]] of neighbourPairs().entries()) {
    const res = trySwap(board, a, b, null);
    if (!res) continue;
    const value = res.points + 40 * res.specialsMade;
    if (value > best.value) best = { value, action: i };
  }
  return best.action;
};
export default policy;
