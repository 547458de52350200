import type { ScriptedPolicy } from '../../gym/agents';

/** The verifier's state (verifier.js is plain JavaScript, so the shape is restated here). */
interface FruitCatchState {
  score: number;
  gameOver: boolean;
  basketX: number;
  basketY: number;
  basketWidth: number;
  width: number;
  items: { x: number; y: number; vy: number; kind: 'apple' | 'pear' | 'bomb' }[];
  [key: string]: unknown;
}

const LEFT = 0, RIGHT = 1, STAY = 2;
const STEP_S = 0.15;
/** How far one held step moves the basket (240 px/s for about 8 frames of the 9). */
const STEP_PX = 32;

/**
 * Heads for the fruit that lands soonest among those it can still reach, and steps out of the
 * way of a bomb about to land in the basket.
 */
const policy: ScriptedPolicy<FruitCatchState> = (s) => {
  const half = s.basketWidth / 2;
  const landing = s.items
    .filter((it) => it.y < s.basketY)
    .map((it) => ({ ...it, steps: (s.basketY - it.y) / it.vy / STEP_S }));
  const dangerAt = (x: number) => landing.some((b) => b.kind === 'bomb' && b.steps < 2.5 && Math.abs(b.x - x) < half + 14);
  const target = landing
    .filter((f) => f.kind !== 'bomb' && Math.abs(f.x - s.basketX) - half <= (f.steps + 0.5) * STEP_PX)
    .sort((a, b) => a.steps - b.steps)[0];
  let move = STAY;
  if (target) {
    const dx = target.x - s.basketX;
    if (dx > 8) move = RIGHT;
    else if (dx < -8) move = LEFT;
  }
  const next = (m: number) => s.basketX + (m === RIGHT ? STEP_PX : m === LEFT ? -STEP_PX : 0);
  if (dangerAt(next(move))) {
    const safe = [STAY, LEFT, RIGHT].filter((m) => next(m) >= half && next(m) <= s.width - half && !dangerAt(next(m)));
    if (safe.length) move = safe[0];
  }
  return move;
};
export default policy;
