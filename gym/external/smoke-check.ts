import { makeEnv } from '../env/env';
import { ArcadeGymError } from '../errors';
import type { VerifierState } from '../schema/records';
import { verifierStateProblems } from '../schema/verifier-state';

export interface SmokeCheckResult {
  /** What the verifier read after the last step (null: it found no game state). */
  state: VerifierState | null;
  steps: number;
  /** Errors the game threw while it ran. */
  gameErrors: string[];
  /**
   * Why the verifier's readings are not verifier states (a missing or mistyped `score` or
   * `gameOver`), each naming the field; empty when every reading was one.
   */
  problems: string[];
}

/**
 * Plays a freshly registered game for a few idle steps in the gym, the way an evaluation
 * would, and reads the verifier's raw answer. A verifier that reads the wrong globals or
 * elements returns null here (the env itself would quietly substitute a zero state); one whose
 * state lacks a required field is refused by the env's episode accounting, on the first reading.
 */
export async function smokeCheck(id: string, steps = 5): Promise<SmokeCheckResult> {
  const env = makeEnv({ game: id, seed: 0, observation: 'state', maxSteps: steps });
  const gameErrors: string[] = [];
  const problems: string[] = [];
  let done = 0;
  try {
    try {
      await env.reset({ seed: 0 });
      for (; done < steps; done++) {
        const r = await env.step({ type: 'wait' });
        gameErrors.push(...(r.info.gameErrors ?? []));
        if (r.terminated || r.truncated) {
          done++;
          break;
        }
      }
    } catch (e) {
      if (!(e instanceof ArcadeGymError && e.code === 'INVALID_VERIFIER_STATE')) throw e;
      problems.push(e.message);
    }
    // A reset refused for its reading leaves no page to read.
    const page = env.currentPage;
    const state = page
      ? await page.evaluate(() => {
          const g = globalThis as unknown as { __arcadeVerifier?: { read(w: Window): unknown } };
          return (g.__arcadeVerifier?.read(window) ?? null) as VerifierState | null;
        })
      : null;
    if (!problems.length && state !== null) problems.push(...verifierStateProblems(state));
    return { state, steps: done, gameErrors, problems };
  } finally {
    await env.close();
  }
}
