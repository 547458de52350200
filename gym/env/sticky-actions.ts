import type { StickyActions } from '../schema/settings';

/**
 * ALE's sticky actions (Machado et al. 2018): at each step after the first, with probability
 * p the game receives the previous step's action instead of the one given, so that an
 * open-loop action list stops reproducing an episode. Each draw is a pure function of the
 * episode's stream seed and the step index, with no state to carry: the headless env, the
 * batched env, recovery by replay and the server's verification decide every step alike, and
 * a record's executed actions replayed under the same stream give the same record.
 */

const GOLDEN = 0x9e3779b9;

/** murmur3's 32-bit finaliser: a bijection that spreads every input bit. */
function mix32(x: number): number {
  let z = x >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * The stream of one episode: from the stream seed (the env's `stickySeed`, which a server keeps
 * to itself; 0 without one) and the episode's seed, so each episode of a seed sequence draws its
 * own repeats and local play is reproducible from the episode seed alone.
 */
export function episodeStream(sticky: StickyActions, episodeSeed: number): StickyActions {
  return { p: sticky.p, seed: mix32((episodeSeed ^ mix32((sticky.seed + GOLDEN) >>> 0)) >>> 0) };
}

/** Whether step `step` (0-based) of a stream repeats the previous step's action. The first step never does. */
export function repeatsAt(stream: StickyActions, step: number): boolean {
  if (step === 0 || stream.p <= 0) return false;
  return mix32((stream.seed ^ mix32((step + GOLDEN) >>> 0)) >>> 0) / 2 ** 32 < stream.p;
}

/** The actions an episode's game receives when `given` are offered under `sticky` (a record's setting) from its first step. */
export function stickyExecuted<A>(given: readonly A[], sticky: StickyActions | undefined, episodeSeed: number): A[] {
  const stream = sticky && episodeStream(sticky, episodeSeed);
  const out: A[] = [];
  for (let i = 0; i < given.length; i++) out.push(stream && repeatsAt(stream, i) ? out[i - 1] : given[i]);
  return out;
}

/** An episode's `sticky` setting (what its record states) from the env options: absent when sticky actions are off. */
export function stickyFor(options: { stickyActions: number; stickySeed?: number }): { sticky?: StickyActions } {
  return options.stickyActions > 0 ? { sticky: { p: options.stickyActions, seed: options.stickySeed ?? 0 } } : {};
}
