import type { Page } from 'playwright-core';
import { getGame } from '../catalog';
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
  /** What would keep agents from seeing or starting the game, each with the manifest field that fixes it. */
  warnings: string[];
  /** The first preset action after which the verifier reads a state, when it reads none without input (a start screen). */
  startsOn: string | null;
}

/** The verifier's own answer in the page: null while it finds no game (the env would substitute a zero state). */
function rawRead(page: Page): Promise<VerifierState | null> {
  return page.evaluate(() => {
    const g = globalThis as unknown as { __arcadeVerifier?: { read(w: Window): unknown } };
    return (g.__arcadeVerifier?.read(window) ?? null) as VerifierState | null;
  });
}

const flat = (px: { data: Uint8Array } | undefined) => !!px && new Set(px.data).size < 2;

/** Preset actions tried, one per fresh episode, to find what starts a game that waits for input. */
const START_PROBES = 12;

/**
 * Plays a freshly registered game for a few idle steps in the gym, the way an evaluation
 * would, and reads the verifier's raw answer. A verifier that reads the wrong globals or
 * elements returns null here (the env itself would quietly substitute a zero state); one whose
 * state lacks a required field is refused by the env's episode accounting, on the first reading.
 */
export async function smokeCheck(id: string, steps = 5): Promise<SmokeCheckResult> {
  const canvas = getGame(id).manifest.renderer !== 'dom';
  const env = makeEnv({ game: id, seed: 0, observation: canvas ? ['state', 'pixels'] : 'state', maxSteps: steps });
  const gameErrors: string[] = [];
  const problems: string[] = [];
  const warnings: string[] = [];
  let done = 0;
  let firstFlat = false;
  let laterDrawn = false;
  try {
    try {
      const first = await env.reset({ seed: 0 });
      firstFlat = flat(first.observation.pixels);
      for (; done < steps; done++) {
        const r = await env.step({ type: 'wait' });
        if (r.observation.pixels && !flat(r.observation.pixels)) laterDrawn = true;
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
    const state = page ? await rawRead(page) : null;
    if (!problems.length && state !== null) problems.push(...verifierStateProblems(state));
    if (firstFlat && laterDrawn) {
      warnings.push(
        'the first observation is one flat colour and a later frame is not: the game draws its board in a later frame, so agents start blind; ' +
          'give the manifest `resetFrames` (frames to run before the first observation)',
      );
    }
    let startsOn: string | null = null;
    if (page && state === null && !problems.length) {
      const preset = env.manifest.preset;
      for (let i = 0; i < Math.min(preset.length, START_PROBES) && !startsOn; i++) {
        await env.reset({ seed: 0 });
        await env.step(i);
        if ((await rawRead(env.currentPage!)) !== null) startsOn = preset[i].name;
      }
      if (startsOn) {
        warnings.push(
          `nothing happens until an input: the verifier reads no game until "${startsOn}" is pressed (a start screen?); ` +
            'give the manifest `startActions` with that input, so every episode starts in the game',
        );
      }
    }
    return { state, steps: done, gameErrors, problems, warnings, startsOn };
  } finally {
    await env.close();
  }
}
