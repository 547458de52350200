import type { DecisionFeatures } from '../../gym/core';
import type { PlatformerVerifierState } from '../../verifiers/platformer';
import {
  ACTIONS,
  JUMP,
  JUMP_RIGHT,
  LEFT,
  NOOP,
  RIGHT,
  cloneSim,
  explore,
  runAction,
  safeEnd,
  simFromState,
  stepTiming,
  type Sim,
  type StepTiming,
} from './simulate';
import { ROWS, solidAt } from './physics';

/**
 * What each platformer key would do over the next step, as features: the course, enemies and
 * coins around the player are rebuilt from the verifier state and run forward with the game's own
 * physics (simulate.ts, which the scripted agent searches with too) for one step of the key.
 * The row then says whether a life is lost, whether the player can still land safely afterwards,
 * how far it got and what it scored, and where it is then: in the air or not, its speed, the
 * nearest enemy ahead and the next pit, and the best that two more steps can add.
 */

export type PlatformerKey = 'right' | 'jump-right' | 'jump' | 'left' | 'noop';

/** Feature names, one block of these per key. */
export const PLATFORMER_FEATURES = [
  'dies',
  'doomed',
  'advance',
  'points',
  'airborne',
  'rise',
  'speed',
  'enemy_dx',
  'enemy_dy',
  'pit_distance',
  'trapped',
  'reach',
  'future_points',
] as const;
export type PlatformerFeature = (typeof PLATFORMER_FEATURES)[number];

/** How far ahead enemies and pits are looked for, in tiles (the verifier's view ends about 20 tiles ahead). */
const LOOK_AHEAD = 10;
/** Steps searched after the key's own: with it, the scripted agent's depth. */
const FOLLOW_UP = 2;

function inputOf(info: unknown): PlatformerVerifierState {
  const s = (info as { state?: Partial<PlatformerVerifierState> } | undefined)?.state;
  if (
    !s ||
    typeof s.player?.x !== 'number' ||
    !Array.isArray(s.view?.tiles) ||
    !Array.isArray(s.enemies) ||
    !Array.isArray(s.coinsNear) ||
    typeof s.camX !== 'number' ||
    typeof s.minX !== 'number'
  ) {
    throw new Error(
      'platformer afterstates read info.state.{player, view, enemies, coinsNear, camX, minX} (the platformer verifier state), and this state lacks them',
    );
  }
  return s as PlatformerVerifierState;
}

/** Tiles from x to the next column with no floor at all (a pit), within LOOK_AHEAD. */
function pitDistance(s: Sim): number {
  const from = Math.floor(s.p.x);
  for (let dx = 0; dx < LOOK_AHEAD; dx++) {
    let floor = false;
    for (let y = 0; y < ROWS && !floor; y++) floor = solidAt(s.world, from + dx, y);
    if (!floor) return dx;
  }
  return LOOK_AHEAD;
}

/**
 * The best way on from `s` over FOLLOW_UP more steps, as the scripted agent ranks them (furthest
 * right plus points), among those that keep every life and end able to land; null if none does.
 */
function bestFollowUp(s: Sim, timing: StepTiming): Sim | null {
  // Assigned inside the callback, which the compiler's narrowing does not follow.
  let best = null as Sim | null;
  explore(s, FOLLOW_UP, timing, ACTIONS, (end) => {
    if (!end.dead && (!best || end.p.x + end.score > best.p.x + best.score + 1e-6) && safeEnd(end)) best = end;
  });
  return best;
}

/**
 * Afterstate features of each key, in the order of `keys` (the game's preset order):
 * [keys × PLATFORMER_FEATURES] row-major, each about −1..1. `advance` is the step's gain in x over
 * 1.5 tiles (a step at full speed); `points` what coins, stomps and ?-blocks add, over 10; `doomed`
 * that no way of holding still, right or left lands without losing a life; `trapped` that no two
 * further steps keep every life and end able to land, else `reach` and `future_points` are the
 * advance (over 3 tiles) and points (over 10) of the best such two (the scripted agent's search
 * with the key as its first step). While the player is dying (the pause after a lost life, when
 * keys do nothing) and at game over every feature is 0.
 */
export function platformerAfterstates(keys: readonly PlatformerKey[], msPerStep: number): DecisionFeatures {
  const perDecision = PLATFORMER_FEATURES.length;
  const timing = stepTiming(msPerStep);
  const action: Record<PlatformerKey, number> = { right: RIGHT, 'jump-right': JUMP_RIGHT, jump: JUMP, left: LEFT, noop: NOOP };
  return {
    perDecision,
    names: PLATFORMER_FEATURES,
    encode(info) {
      const out = new Float32Array(keys.length * perDecision);
      const state = inputOf(info);
      if (state.gameOver || state.dying) return out;
      const root = simFromState(state);
      keys.forEach((key, k) => {
        const s = cloneSim(root);
        runAction(s, action[key], timing);
        const row = out.subarray(k * perDecision, (k + 1) * perDecision);
        row[0] = s.dead ? 1 : 0;
        if (s.dead) return;
        row[1] = safeEnd(s) ? 0 : 1;
        row[2] = (s.p.x - root.p.x) / 1.5;
        row[3] = s.score / 10;
        row[4] = s.p.onGround ? 0 : 1;
        row[5] = s.p.vy / 20;
        row[6] = s.p.vx / 7.5;
        let enemy: (typeof s.enemies)[number] | null = null;
        for (const e of s.enemies) if (e.alive && e.x > s.p.x - 1 && e.x < s.p.x + LOOK_AHEAD && (!enemy || e.x < enemy.x)) enemy = e;
        row[7] = enemy ? (enemy.x - s.p.x) / LOOK_AHEAD : 1;
        row[8] = enemy ? (enemy.y - s.p.y) / 5 : 0;
        row[9] = pitDistance(s) / LOOK_AHEAD;
        const next = bestFollowUp(s, timing);
        row[10] = next ? 0 : 1;
        row[11] = next ? (next.p.x - s.p.x) / 3 : 0;
        row[12] = next ? (next.score - s.score) / 10 : 0;
      });
      return out;
    },
  };
}
