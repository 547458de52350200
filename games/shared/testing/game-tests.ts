import { expect, it } from 'vitest';
import type { ArcadeEnv, ArcadeStepResult as StepResult } from '../../../gym';
import type { EnvOptionsInput, Action, VerifierState } from '../../../gym/schema';
import { checkScriptedSteps, pixelSpread, scriptedAndRandomScores } from '../../../gym/testing';
import type { useBrowser } from '../../../gym/testing';

/**
 * What the games' test files would otherwise copy from each other (games/README.md, "Tests a
 * game ships"), written once: the frame and scripted-vs-random tests every file ends with
 * (`gameTests`), where a game's file gives only its own actions and thresholds, and the steps
 * several games' tests share (starting an env, playing out a level's moves, setting page state,
 * the block puzzles' drops).
 */

type Gym = ReturnType<typeof useBrowser>;
/** A preset index or a GUI action. */
type Act = Action | number;

export interface FrameTest<S extends VerifierState> {
  seed: number;
  /** Sets the page up after reset (a board of the test's own, say). */
  setup?: (env: ArcadeEnv) => Promise<void>;
  /** Actions played first, chosen from the state after reset. */
  before?: (state: S) => Act[];
  /** The action that must change the frame, chosen from the state the `before` actions left. */
  change: Act | ((state: S) => Act);
  /** The frame after `change` has more than `distinct` pixel values (and a spread above `std`). */
  distinct: number;
  std?: number;
  /** Checks particular to the game on the result of `change`. */
  check?: (result: StepResult) => void;
}

/** A non-blank rendered frame whose hash changes when the state does. */
function itRendersAChangingFrame<S extends VerifierState>(gym: Gym, game: string, title: string, t: FrameTest<S>): void {
  it(title, async () => {
    const env = await gym.env({ game, seed: t.seed, observation: ['state', 'pixels'] });
    const { info } = await env.reset({ seed: t.seed });
    await t.setup?.(env);
    let state = info.state as S;
    for (const a of t.before?.(state) ?? []) state = (await env.step(a)).info.state as S;
    const before = await env.frameHash();
    const r = await env.step(typeof t.change === 'function' ? t.change(state) : t.change);
    expect(await env.frameHash()).not.toBe(before);
    const px = pixelSpread(r.observation.pixels!);
    expect(px.distinct).toBeGreaterThan(t.distinct);
    if (t.std !== undefined) expect(px.std).toBeGreaterThan(t.std);
    t.check?.(r);
  });
}

export interface BeatsRandomTest {
  /** One scripted and one random episode from each seed. */
  seeds: readonly number[];
  /** The env's step budget, where the manifest's is longer than the test needs. */
  maxSteps?: number;
  /** The scripted agent's least score on every seed. */
  atLeast?: number;
  /** The scripted score must be above this, for the random agent's score from the same seed. */
  above: (random: number) => number;
}

/** The game's scripted agent clearly out-scores a random one. */
function itBeatsRandom(gym: Gym, game: string, title: string, t: BeatsRandomTest): void {
  it(title, async () => {
    const env = await gym.env({ game, seed: 0, observation: 'state', maxSteps: t.maxSteps });
    for (const seed of t.seeds) {
      const { scripted, random } = await scriptedAndRandomScores(env, seed);
      if (t.atLeast !== undefined) expect(scripted).toBeGreaterThanOrEqual(t.atLeast);
      expect(scripted).toBeGreaterThan(t.above(random));
    }
  });
}

/** The shared tests of `game`, in the browser of the test file's `gym`: each call declares one `it`. */
export function gameTests(gym: Gym, game: string) {
  return {
    /** An env of the game (closed with the file's browser), reset with `seed`: the reset's observation and its verifier state. */
    start: async <S extends VerifierState>(seed: number, options: Omit<EnvOptionsInput, 'game' | 'seed'> = {}) => {
      const env = await gym.env({ game, seed, ...options });
      const { observation, info } = await env.reset({ seed });
      return { env, observation, state: info.state as S };
    },
    framesChange: <S extends VerifierState>(title: string, t: FrameTest<S>) => itRendersAChangingFrame(gym, game, title, t),
    beatsRandom: (title: string, t: BeatsRandomTest) => itBeatsRandom(gym, game, title, t),
  };
}

/**
 * Plays `action(k)` for the moves k = 0 … n-1 of a move-limited level and checks that exactly the
 * last one ends the episode; returns that last step's result.
 */
export async function expectEndsOnMove(env: ArcadeEnv, n: number, action: (k: number) => Act): Promise<StepResult> {
  let last: StepResult | undefined;
  for (let k = 0; k < n; k++) {
    last = await env.step(action(k));
    expect(last.terminated).toBe(k === n - 1);
  }
  return last!;
}

/** The part of a block puzzle's verifier state (hex-frvr, wood-blocks-3d) that says whether a piece can still go down. */
interface BlockPuzzleState extends VerifierState {
  pieces: ({ fits: boolean } | null)[];
}

/**
 * Plays a block puzzle from `start` by the test's own `plan` (the actions of the next turn, from
 * the state) until the game ends, in fewer than `maxSteps` steps, and checks that it ended
 * because no offered piece fits. Returns the last state.
 */
export async function playUntilNoPieceFits<S extends BlockPuzzleState>(env: ArcadeEnv, start: S, maxSteps: number, plan: (s: S) => Act[]): Promise<S> {
  let s = start;
  let steps = 0;
  for (;;) {
    const actions = plan(s);
    expect(actions.length).toBeGreaterThan(0);
    for (const a of actions) {
      const r = await env.step(a);
      steps++;
      s = r.info.state as S;
      if (r.terminated) {
        expect(s.gameOver).toBe(true);
        expect(s.pieces.every((p) => p === null || !p.fits)).toBe(true);
        expect(r.info.episode?.totals.terminated).toBe(true);
        return s;
      }
    }
    expect(steps).toBeLessThan(maxSteps);
  }
}

/** What a block puzzle's verifier state says about drops (hex-frvr, wood-blocks-3d). */
interface BlockDropState extends VerifierState {
  moves: number;
  lines: number;
  combo: number;
  board: unknown;
  selected: number;
  pieces: ({ cells: unknown[] } | null)[];
}

/**
 * Checks every step of a block puzzle's scripted episode from `seed`: a drop (the move count
 * went up) is an action `drop` says drops, adds the lines it predicts from the state before it, moves
 * the combo on, scores the piece's cells + `linePoints(lines, combo)` and leaves the board `drop`
 * predicts; any other step scores 0. Returns how many drops cleared lines.
 */
export async function checkBlockDrops<S extends BlockDropState>(
  env: ArcadeEnv,
  seed: number,
  /** The drop a scripted action makes from `before` (the piece's slot, and the board and lines the rules predict), or null for an action that drops nothing. */
  drop: (before: S, action: number) => { slot: number; board: unknown; lines: number } | null,
  linePoints: (lines: number, combo: number) => number,
): Promise<number> {
  let clears = 0;
  await checkScriptedSteps<S>(env, seed, (s, action, r) => {
    const n = r.info.state as S;
    if (n.moves > s.moves) {
      const res = typeof action === 'number' ? drop(s, action) : null;
      expect(res, `action ${action} dropped a piece`).not.toBeNull();
      if (!res) return;
      expect(n.lines - s.lines).toBe(res.lines);
      expect(n.combo).toBe(res.lines ? s.combo + 1 : 0);
      expect(r.reward).toBe(s.pieces[res.slot]!.cells.length + linePoints(res.lines, Math.max(1, n.combo)));
      expect(n.board).toEqual(res.board);
      if (res.lines) clears++;
    } else {
      expect(r.reward).toBe(0);
    }
  });
  return clears;
}

/** Sets fields of the game's state in its window global (`window[global]`): a hand-made board for a test. */
export async function patchGameState(env: ArcadeEnv, global: string, patch: Record<string, unknown>): Promise<void> {
  await env.currentPage!.evaluate(([g, p]) => Object.assign((window as unknown as Record<string, object>)[g], p), [global, patch] as const);
}

/**
 * For the turn-a-tile puzzles' vectors (energy, infinity-loop): per side N, E, S, W of cell i, 1
 * where its opening meets the neighbour's facing opening, computed here apart from the verifier.
 */
export function expectedJoints(s: { cols: number; rows: number; tiles: readonly number[] }, i: number): number[] {
  return [0, 1, 0, -1].map((dx, d) => {
    const x = (i % s.cols) + dx;
    const y = Math.floor(i / s.cols) + [-1, 0, 1, 0][d];
    return s.tiles[i] & (1 << d) && x >= 0 && y >= 0 && x < s.cols && y < s.rows && s.tiles[y * s.cols + x] & (1 << ((d + 2) % 4)) ? 1 : 0;
  });
}
