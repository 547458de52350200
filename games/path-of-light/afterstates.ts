import type { DecisionFeatures } from '../../gym/core';
import { DX, DY } from '../shared/grid-board';
import { DIR_INDEX, mazeDistances, type Dir } from './logic';

/**
 * What each Path of Light key would lead to, as features, from the verifier state with the rules
 * a player sees on screen, the game's own (logic.ts): a move through an open side takes the orb
 * one cell and spends one unit of energy; a wall stops it for free; an unlit cell scores a point
 * as it lights; the exit scores the bonus and opens the next maze; the light goes out when the
 * energy is spent short of the exit. The maze is known to the player (`open`), so distances are
 * shortest paths through it.
 */

/** Feature names, one block of these per key. */
export const MAZE_FEATURES = ['blocked', 'lights', 'exits', 'closer', 'exit_distance', 'unlit_distance', 'slack', 'stranded'] as const;
export type MazeFeature = (typeof MAZE_FEATURES)[number];

interface MazeInput {
  n: number;
  open: number[];
  lit: number[];
  player: [number, number];
  exit: [number, number];
  energy: number;
  gameOver: boolean;
}

function inputOf(info: unknown): MazeInput {
  const s = (info as { state?: Partial<MazeInput> } | undefined)?.state;
  if (
    !s ||
    typeof s.n !== 'number' ||
    !Array.isArray(s.open) ||
    !Array.isArray(s.lit) ||
    !Array.isArray(s.player) ||
    !Array.isArray(s.exit) ||
    typeof s.energy !== 'number'
  ) {
    throw new Error('maze afterstates read info.state.{n, open, lit, player, exit, energy} (the Path of Light verifier state), and this state lacks them');
  }
  return s as MazeInput;
}

/**
 * Afterstate features of each key, in the order of `keys` (the game's preset order):
 * [keys × MAZE_FEATURES] row-major. Distances are in cells divided by the maze side n;
 * `slack` is the energy left after the move minus the distance still to go to the exit (over n,
 * clipped to [−1, 2]); `stranded` says the exit is then out of reach (the light will go out).
 * At game over every feature is 0.
 */
export function mazeAfterstates(keys: readonly Dir[]): DecisionFeatures {
  const perDecision = MAZE_FEATURES.length;
  return {
    perDecision,
    names: MAZE_FEATURES,
    encode(info) {
      const out = new Float32Array(keys.length * perDecision);
      const s = inputOf(info);
      if (s.gameOver) return out;
      const { n, open, lit } = s;
      const here = s.player[1] * n + s.player[0];
      const exit = s.exit[1] * n + s.exit[0];
      const toExit = mazeDistances(n, open, exit);
      // Every key that bumps a wall leaves the orb where it is: one search from there serves them all.
      const searched = new Map<number, Int32Array>();
      keys.forEach((key, k) => {
        const side = DIR_INDEX[key];
        const blocked = !(open[here] & (1 << side));
        const cell = blocked ? here : here + DY[side] * n + DX[side];
        const energy = blocked ? s.energy : s.energy - 1;
        const fromCell = searched.get(cell) ?? mazeDistances(n, open, cell);
        searched.set(cell, fromCell);
        let unlit = -1;
        for (let i = 0; i < n * n; i++) if (!lit[i] && i !== cell && fromCell[i] >= 0 && (unlit < 0 || fromCell[i] < unlit)) unlit = fromCell[i];
        const row = out.subarray(k * perDecision, (k + 1) * perDecision);
        const exits = !blocked && cell === exit;
        row[0] = blocked ? 1 : 0;
        row[1] = !blocked && !lit[cell] ? 1 : 0;
        row[2] = exits ? 1 : 0;
        row[3] = toExit[cell] < toExit[here] ? 1 : 0;
        row[4] = toExit[cell] / n;
        row[5] = (unlit < 0 ? n : Math.min(unlit, n)) / n;
        row[6] = exits ? 2 : Math.max(-1, Math.min(2, (energy - toExit[cell]) / n));
        row[7] = !exits && energy < toExit[cell] ? 1 : 0;
      });
      return out;
    },
  };
}
