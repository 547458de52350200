import { makeEnv } from '../env/env';
import type { VerifierState } from '../schema/records';

export interface SmokeCheckResult {
  /** What the verifier read after the last step (null: it found no game state). */
  state: VerifierState | null;
  steps: number;
  /** Errors the game threw while it ran. */
  gameErrors: string[];
}

/**
 * Plays a freshly registered game for a few idle steps in the gym, the way an evaluation
 * would, and reads the verifier's raw answer. A verifier that reads the wrong globals or
 * elements returns null here (the env itself would quietly substitute a zero state).
 */
export async function smokeCheck(id: string, steps = 5): Promise<SmokeCheckResult> {
  const env = makeEnv({ game: id, seed: 0, observation: 'state', maxSteps: steps });
  const gameErrors: string[] = [];
  try {
    await env.reset({ seed: 0 });
    let done = 0;
    for (; done < steps; done++) {
      const r = await env.step({ type: 'wait' });
      gameErrors.push(...(r.info.gameErrors ?? []));
      if (r.terminated || r.truncated) {
        done++;
        break;
      }
    }
    const state = await env.currentPage!.evaluate(() => {
      const g = globalThis as unknown as { __arcadeVerifier?: { read(w: Window): unknown } };
      return (g.__arcadeVerifier?.read(window) ?? null) as VerifierState | null;
    });
    return { state, steps: done, gameErrors };
  } finally {
    await env.close();
  }
}
