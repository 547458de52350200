/**
 * Generalised Advantage Estimation over a time-major rollout [T steps × E envs]
 * (index t·E + e), with the variants of the UI-TARS-2 recipe:
 * - per-step λ (decoupled λ for policy/critic, length-adaptive λ per episode);
 * - truncation bootstraps from V(final obs); termination does not;
 * - `valid = 0` marks next-step autoreset transitions, which are no part of any episode.
 */
export interface GaeInput {
  numSteps: number;
  numEnvs: number;
  rewards: ArrayLike<number>;
  /** V(s_t) from the rollout. */
  values: ArrayLike<number>;
  terminated: ArrayLike<number | boolean>;
  truncated: ArrayLike<number | boolean>;
  /** 1 for real transitions, 0 for next-step autoreset transitions (default: all valid). */
  valid?: ArrayLike<number | boolean>;
  /** V(final obs of the episode) for steps that end by truncation (ignored elsewhere). */
  bootstrapValues: ArrayLike<number>;
  /** V(obs after the last step) per env, bootstrapping episodes still running at the end. */
  lastValues: ArrayLike<number>;
  gamma: number;
  /** One λ for every step, or a λ per step. */
  lambda: number | ArrayLike<number>;
}

/**
 * Â_t = δ_t + γ·λ_t·(1 − done_t)·Â_{t+1}, δ_t = r_t + γ·V_next − V(s_t), where V_next is 0 on
 * termination, V(final obs) on truncation, V(s_{t+1}) otherwise (lastValues after the end).
 */
export function computeGae(input: GaeInput): Float32Array {
  const { numSteps: T, numEnvs: E, rewards, values, terminated, truncated, valid, bootstrapValues, lastValues, gamma, lambda } = input;
  const advantages = new Float32Array(T * E);
  for (let e = 0; e < E; e++) {
    let next = 0; // Â_{t+1}
    for (let t = T - 1; t >= 0; t--) {
      const i = t * E + e;
      if (valid && !valid[i]) {
        advantages[i] = 0;
        next = 0;
        continue;
      }
      const term = !!terminated[i];
      const trunc = !!truncated[i];
      const nextValue = term ? 0 : trunc ? bootstrapValues[i] : t === T - 1 ? lastValues[e] : values[i + E];
      const delta = rewards[i] + gamma * nextValue - values[i];
      const lam = typeof lambda === 'number' ? lambda : lambda[i];
      next = delta + (term || trunc ? 0 : gamma * lam * next);
      advantages[i] = next;
    }
  }
  return advantages;
}

/** Value targets: advantages (computed with the critic's λ) plus the rollout values. */
export function valueTargets(advantages: ArrayLike<number>, values: ArrayLike<number>): Float32Array {
  const out = new Float32Array(advantages.length);
  for (let i = 0; i < out.length; i++) out[i] = advantages[i] + values[i];
  return out;
}

export interface EpisodeLengthInput {
  numSteps: number;
  numEnvs: number;
  terminated: ArrayLike<number | boolean>;
  truncated: ArrayLike<number | boolean>;
  valid?: ArrayLike<number | boolean>;
  /** Steps each env's current episode had already taken before this rollout began. */
  startLengths: ArrayLike<number>;
}

/**
 * The length l of the episode each step belongs to: its full length when it ends inside the
 * rollout (counting steps from earlier rollouts), else its length so far at the rollout's end
 * (a lower bound; the rest is not known yet). Invalid steps get 0.
 */
export function episodeLengths(input: EpisodeLengthInput): Float32Array {
  const { numSteps: T, numEnvs: E, terminated, truncated, valid, startLengths } = input;
  const lengths = new Float32Array(T * E);
  for (let e = 0; e < E; e++) {
    let episodeStart = 0; // first step of the current episode inside this rollout
    let before = startLengths[e];
    const close = (endExclusive: number) => {
      const l = before + (endExclusive - episodeStart);
      for (let t = episodeStart; t < endExclusive; t++) lengths[t * E + e] = l;
    };
    for (let t = 0; t < T; t++) {
      const i = t * E + e;
      if (valid && !valid[i]) {
        episodeStart = t + 1;
        before = 0;
        continue;
      }
      if (terminated[i] || truncated[i]) {
        close(t + 1);
        episodeStart = t + 1;
        before = 0;
      }
    }
    close(T);
  }
  return lengths;
}

/** Length-adaptive λ (VAPO / UI-TARS-2): λ = 1 − 1/(α·l), clamped to [minLambda, 1]. */
export function lengthAdaptiveLambda(length: number, alpha: number, minLambda: number): number {
  if (length <= 0) return minLambda;
  const lam = 1 - 1 / (alpha * length);
  return Math.min(1, Math.max(minLambda, lam));
}

export function lengthAdaptiveLambdas(lengths: ArrayLike<number>, alpha: number, minLambda: number): Float32Array {
  const out = new Float32Array(lengths.length);
  for (let i = 0; i < out.length; i++) out[i] = lengthAdaptiveLambda(lengths[i], alpha, minLambda);
  return out;
}
