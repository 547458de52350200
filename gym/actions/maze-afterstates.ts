import type { DecisionFeatures } from '../core/wrappers/macro-action';

/**
 * What each Path of Light key would lead to, as features, from the verifier state with the rules
 * a player sees on screen: a move through an open side takes the orb one cell and spends one unit
 * of energy; a wall stops it for free; an unlit cell scores a point as it lights; the exit scores
 * the bonus and opens the next maze; the light goes out when the energy is spent short of the exit.
 * The maze is known to the player (`open`), so distances are shortest paths through it.
 */

export type MazeKey = 'up' | 'right' | 'down' | 'left';

/** Feature names, one block of these per key. */
export const MAZE_FEATURES = ['blocked', 'lights', 'exits', 'closer', 'exit_distance', 'unlit_distance', 'slack', 'stranded'] as const;
export type MazeFeature = (typeof MAZE_FEATURES)[number];

/** The `open` bit of each key (N=1, E=2, S=4, W=8) and its step. */
const SIDE: Record<MazeKey, { bit: number; dx: number; dy: number }> = {
  up: { bit: 1, dx: 0, dy: -1 },
  right: { bit: 2, dx: 1, dy: 0 },
  down: { bit: 4, dx: 0, dy: 1 },
  left: { bit: 8, dx: -1, dy: 0 },
};
const SIDES = Object.values(SIDE);

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

/** Shortest-path distance from `from` to every cell through open sides (−1: unreachable). */
function distances(n: number, open: readonly number[], from: number): Int32Array {
  const dist = new Int32Array(n * n).fill(-1);
  dist[from] = 0;
  const queue = [from];
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q];
    const x = i % n;
    const y = (i - x) / n;
    for (const { bit, dx, dy } of SIDES) {
      if (!(open[i] & bit)) continue;
      const j = (y + dy) * n + x + dx;
      if (dist[j] >= 0) continue;
      dist[j] = dist[i] + 1;
      queue.push(j);
    }
  }
  return dist;
}

/**
 * Afterstate features of each key, in the order of `keys` (the game's preset order):
 * [keys × MAZE_FEATURES] row-major. Distances are in cells divided by the maze side n;
 * `slack` is the energy left after the move minus the distance still to go to the exit (over n,
 * clipped to [−1, 2]); `stranded` says the exit is then out of reach (the light will go out).
 * At game over every feature is 0.
 */
export function mazeAfterstates(keys: readonly MazeKey[]): DecisionFeatures {
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
      const toExit = distances(n, open, exit);
      // Every key that bumps a wall leaves the orb where it is: one search from there serves them all.
      const searched = new Map<number, Int32Array>();
      keys.forEach((key, k) => {
        const side = SIDE[key];
        const blocked = !(open[here] & side.bit);
        const cell = blocked ? here : here + side.dy * n + side.dx;
        const energy = blocked ? s.energy : s.energy - 1;
        const fromCell = searched.get(cell) ?? distances(n, open, cell);
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
