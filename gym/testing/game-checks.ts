import { createRandomAgent } from '../agents/random-agent';
import { createScriptedAgent } from '../agents/scripted-agent';
import { getGame } from '../catalog';
import type { ArcadeEnv, StepResult } from '../env/env';
import type { PixelObservation } from '../env/observation';
import { runEpisode } from '../eval/run-episode';
import type { Action } from '../schema/action';
import { canonicalJson, type VerifierState } from '../schema/records';

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

/** What `probeActionMask` saw: how often masked and allowed actions were tried, and how each compared with a wait. */
export interface ActionMaskProbe {
  steps: number;
  /** Masked actions tried, and those that changed the state anyway (must be 0). */
  maskedTried: number;
  maskedChanged: { step: number; action: number; name: string }[];
  /** Allowed actions tried, and those that changed the state as a wait would not. */
  allowedTried: number;
  allowedChanged: number;
  /** Readings whose mask had the wrong length, or no allowed action while the game ran. */
  malformed: string[];
}

/**
 * Checks a game's action mask (`info.actionMask`) against what the game accepts on a real page.
 * Two envs play the same seed with the same actions; at every step the first takes an action
 * (half the time a masked one, when there is one) while the twin waits (`{type:'wait'}`). A
 * masked action must leave the verifier state exactly as the wait does; an allowed one should
 * change it. After an allowed action the twin is rebuilt on the first's actions (restoreEpisode).
 */
export async function probeActionMask(a: ArcadeEnv, b: ArcadeEnv, opts: { seed: number; steps: number; random: () => number }): Promise<ActionMaskProbe> {
  const names = a.manifest.preset.map((p) => p.name);
  const probe: ActionMaskProbe = { steps: 0, maskedTried: 0, maskedChanged: [], allowedTried: 0, allowedChanged: 0, malformed: [] };
  let seed = opts.seed;
  let info: { state: VerifierState; actionMask?: number[] } = (await a.reset({ seed })).info;
  await b.reset({ seed });
  let actions: number[] = [];
  for (let t = 0; t < opts.steps; t++) {
    const mask = info.actionMask;
    if (!mask || mask.length !== names.length || !mask.every((m) => m === 0 || m === 1)) {
      probe.malformed.push(`step ${t}: mask ${JSON.stringify(mask)} for ${names.length} actions`);
      break;
    }
    const masked = names.map((_, i) => i).filter((i) => mask[i] === 0);
    const allowed = names.map((_, i) => i).filter((i) => mask[i] === 1);
    if (allowed.length === 0) probe.malformed.push(`step ${t}: no allowed action while the game runs (state ${JSON.stringify(info.state)})`);
    const pickMasked = masked.length > 0 && (allowed.length === 0 || opts.random() < 0.5);
    const pool = pickMasked ? masked : allowed;
    const action = pool[Math.floor(opts.random() * pool.length)];
    const r = await a.step(action);
    const twin = await b.step({ type: 'wait' });
    actions.push(action);
    probe.steps++;
    const same = canonicalJson(r.info.state) === canonicalJson(twin.info.state) && r.terminated === twin.terminated;
    if (pickMasked) {
      probe.maskedTried++;
      if (!same) probe.maskedChanged.push({ step: t, action, name: names[action] });
    } else {
      probe.allowedTried++;
      if (!same) probe.allowedChanged++;
    }
    if (r.terminated || r.truncated) {
      seed += 1;
      ({ info } = await a.reset({ seed }));
      await b.reset({ seed });
      actions = [];
      continue;
    }
    info = r.info;
    if (!same) await b.restoreEpisode(seed, actions);
  }
  return probe;
}
