import type { ScriptedPolicy } from '../../gym/agents';
import type { EnergyVerifierState } from '../../verifiers/energy';
import { hasLooseEnd, reachable, solveTurns } from '../shared/turn-tiles';

/**
 * Finds an orientation of every tile in which all openings meet (row-major backtracking,
 * cheapest rotations first) and every bulb is joined to the source, then taps the first tile
 * that is not yet turned that way. Deterministic, so successive steps aim at one solution.
 */
export function solveEnergy(s: Pick<EnergyVerifierState, 'cols' | 'rows' | 'tiles' | 'source' | 'bulbs'>, maxNodes = 200_000): number[] | null {
  const complete = (sol: readonly number[]) => {
    const on = reachable(sol, s.cols, s.rows, s.source);
    return s.bulbs.every((b) => on[b]);
  };
  return solveTurns(s.cols, s.rows, s.tiles, { complete, maxNodes });
}

const policy: ScriptedPolicy<EnergyVerifierState> = (s) => {
  const sol = solveEnergy(s);
  if (sol) {
    for (let i = 0; i < s.tiles.length; i++) if (s.tiles[i] !== sol[i]) return i;
  }
  // Fallback: turn the first powered tile that has an opening leading nowhere.
  for (let i = 0; i < s.tiles.length; i++) if (s.powered[i] && hasLooseEnd(s.tiles, s.cols, s.rows, i)) return i;
  return s.tiles.findIndex((m) => m !== 0 && m !== 15);
};
export default policy;
