import { createRandomAgent } from '../agents/random-agent';
import { createScriptedAgent } from '../agents/scripted-agent';
import { getGame } from '../catalog';
import type { ArcadeEnv, StepResult } from '../env/env';
import type { PixelObservation } from '../env/observation';
import { runEpisode } from '../eval/run-episode';
import type { Action } from '../schema/action';
import type { VerifierState } from '../schema/records';

/**
 * The checks every game's tests make in the same way (games/README.md, "Tests a game ships"),
 * so each test file states only its game's thresholds.
 */

/**
 * How varied a frame is: the number of distinct pixel values and their standard deviation. A
 * blank or single-colour frame has a handful of values and a deviation near 0.
 */
export function pixelSpread(pixels: PixelObservation | ArrayLike<number>): { distinct: number; std: number } {
  const px = Array.from('data' in pixels ? pixels.data : pixels);
  const mean = px.reduce((a, b) => a + b, 0) / px.length;
  const std = Math.sqrt(px.reduce((a, b) => a + (b - mean) ** 2, 0) / px.length);
  return { distinct: new Set(px).size, std };
}

/** Scores of one episode from `seed` by the game's scripted agent, then one by a random agent, in `env`. */
export async function scriptedAndRandomScores(env: ArcadeEnv, seed: number): Promise<{ scripted: number; random: number }> {
  const scripted = await runEpisode(env, await createScriptedAgent(env.manifest.id), seed);
  const random = await runEpisode(env, createRandomAgent(), seed);
  return { scripted: scripted.totals.score, random: random.totals.score };
}

/**
 * Indices in the game's discrete preset (its built manifest) of the actions named, in the order
 * named, so a test says which action it means and fails by name if the preset changes.
 */
export function presetIndices(gameId: string, names: readonly string[]): number[] {
  const preset = getGame(gameId).manifest.preset;
  return names.map((name) => {
    const i = preset.findIndex((p) => p.name === name);
    if (i < 0) throw new Error(`${gameId}'s preset has no action "${name}" (it has: ${preset.map((p) => p.name).join(', ')})`);
    return i;
  });
}

/**
 * Plays the game's scripted agent in `env` from `seed` until the episode ends (or `limit`
 * steps), handing `check` each step: the state before it, the action and the step's result.
 */
export async function checkScriptedSteps<S extends VerifierState>(
  env: ArcadeEnv,
  seed: number,
  check: (before: S, action: Action, result: StepResult) => void,
  limit = Number.POSITIVE_INFINITY,
): Promise<void> {
  const agent = await createScriptedAgent(env.manifest.id);
  let { observation, info } = await env.reset({ seed });
  await agent.reset({ manifest: env.manifest, seed });
  let state = info.state;
  for (let step = 0; step < limit; step++) {
    const action = await agent.act({ observation, state, step });
    const result = await env.step(action);
    check(state as S, action, result);
    if (result.terminated || result.truncated) return;
    observation = result.observation;
    state = result.info.state;
  }
}

/**
 * The verifier state after pressing each of `keys` (100 ms apart) and letting 500 ms pass, read
 * in the page in one go: a finished game must not change, whatever is pressed.
 */
export async function stateAfterKeys(env: ArcadeEnv, keys: readonly string[]): Promise<unknown> {
  return env.currentPage!.evaluate((ks) => {
    const obs = { state: true, vector: false, pixels: null, frameHash: false };
    for (const key of ks) globalThis.__arcade.step({ action: { type: 'key', key }, ms: 100, obs });
    return globalThis.__arcade.step({ action: null, ms: 500, obs }).state;
  }, keys);
}
