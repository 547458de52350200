import { expect, it } from 'vitest';
import type { ArcadeEnv, StepResult } from '../../../gym/env/env';
import { pixelSpread, scriptedAndRandomScores } from '../../../gym/testing/game-checks';
import type { useBrowser } from '../../../gym/testing/harness';
import type { Action } from '../../../gym/schema/action';
import type { VerifierState } from '../../../gym/schema/records';

/**
 * The two tests every game's test file ends with (games/README.md, "Tests a game ships"), each
 * written once here: a game's file gives only its own actions and thresholds.
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
    framesChange: <S extends VerifierState>(title: string, t: FrameTest<S>) => itRendersAChangingFrame(gym, game, title, t),
    beatsRandom: (title: string, t: BeatsRandomTest) => itBeatsRandom(gym, game, title, t),
  };
}
