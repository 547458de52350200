import type { ActingSession } from './acting';
import type { ObsEncoder } from './obs-encoder';
import { shapeReward, type RewardShapingConfig } from './reward-shaping';
import type { BatchedObs, VectorEnvLike } from './vector-env';

/** One rollout, time-major: entry t·E + e is env e at step t. */
export interface Rollout {
  numSteps: number;
  numEnvs: number;
  /** Encoded observations [T·E, inputSize]. */
  obs: Float32Array;
  actions: Float32Array;
  logProbs: Float32Array;
  values: Float32Array;
  /** Shaped rewards (what the learner optimises). */
  rewards: Float32Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
  /** 0 for next-step autoreset transitions (not part of any episode; excluded from the loss). */
  valid: Uint8Array;
  /** V(final obs) for steps ending in truncation. */
  bootstrapValues: Float32Array;
  /** V(obs after the last step), per env. */
  lastValues: Float32Array;
  /** Steps each env's running episode had taken before the rollout started. */
  startLengths: Float32Array;
  /** Episodes that ended during the rollout, with raw (unshaped) returns. */
  episodes: { return: number; length: number }[];
}

/** The collector's state between rollouts, saved in checkpoints. */
export interface CollectorState {
  obs: Float32Array;
  pendingReset: boolean[];
  episodeReturn: number[];
  episodeLength: number[];
  samplingCounter: number;
}

/** Encodes a batch of env observations into `out` (env-major, encoder.netSize each). */
export function encodeBatch(obs: BatchedObs, num: number, encoder: ObsEncoder, out: Float32Array): void {
  const size = encoder.envSize;
  const list = obs.length > 0 && typeof (obs as ArrayLike<unknown>)[0] === 'object';
  if (list && obs.length !== num) throw new Error(`expected ${num} observations, got ${obs.length}`);
  if (!list && obs.length !== num * size) throw new Error(`flattened observations have ${obs.length} values, expected ${num * size}`);
  for (let e = 0; e < num; e++) {
    const o = list ? (obs as readonly ArrayLike<number>[])[e] : flatRow(obs as ArrayLike<number>, e * size, size);
    encoder.encode(o, out, e * encoder.netSize);
  }
}

function flatRow(flat: ArrayLike<number>, start: number, size: number): ArrayLike<number> {
  if (ArrayBuffer.isView(flat)) return (flat as unknown as Float32Array).subarray(start, start + size);
  return Array.prototype.slice.call(flat, start, start + size) as number[];
}

/**
 * Steps a VectorEnvLike with the current policy and records everything GAE and the PPO
 * update need. Handles both Gymnasium autoreset modes (see vector-env.ts).
 */
export class RolloutCollector {
  private obs: Float32Array;
  private pendingReset: boolean[];
  private episodeReturn: number[];
  private episodeLength: number[];
  private readonly num: number;

  constructor(
    readonly env: VectorEnvLike,
    readonly encoder: ObsEncoder,
    readonly acting: ActingSession,
    readonly shaping: RewardShapingConfig,
  ) {
    this.num = env.num;
    if (acting.batch !== env.num) throw new Error(`acting batch ${acting.batch} ≠ env.num ${env.num}`);
    this.obs = new Float32Array(this.num * encoder.netSize);
    this.pendingReset = new Array(this.num).fill(false);
    this.episodeReturn = new Array(this.num).fill(0);
    this.episodeLength = new Array(this.num).fill(0);
  }

  async reset(seed: number | readonly number[]): Promise<void> {
    const { obs } = await this.env.reset(seed);
    encodeBatch(obs, this.num, this.encoder, this.obs);
    this.pendingReset.fill(false);
    this.episodeReturn.fill(0);
    this.episodeLength.fill(0);
  }

  getState(): CollectorState {
    return {
      obs: this.obs.slice(),
      pendingReset: [...this.pendingReset],
      episodeReturn: [...this.episodeReturn],
      episodeLength: [...this.episodeLength],
      samplingCounter: this.acting.counter,
    };
  }

  setState(s: CollectorState): void {
    if (s.obs.length !== this.obs.length) throw new Error('collector state does not match the env/network');
    this.obs = s.obs.slice();
    this.pendingReset = [...s.pendingReset];
    this.episodeReturn = [...s.episodeReturn];
    this.episodeLength = [...s.episodeLength];
    this.acting.counter = s.samplingCounter;
  }

  async collect(numSteps: number): Promise<Rollout> {
    const E = this.num;
    const T = numSteps;
    const D = this.encoder.netSize;
    const nextStepMode = this.env.autoresetMode === 'next-step';
    const r: Rollout = {
      numSteps: T,
      numEnvs: E,
      obs: new Float32Array(T * E * D),
      actions: new Float32Array(T * E),
      logProbs: new Float32Array(T * E),
      values: new Float32Array(T * E),
      rewards: new Float32Array(T * E),
      terminated: new Uint8Array(T * E),
      truncated: new Uint8Array(T * E),
      valid: new Uint8Array(T * E),
      bootstrapValues: new Float32Array(T * E),
      lastValues: new Float32Array(E),
      startLengths: Float32Array.from(this.episodeLength),
      episodes: [],
    };
    const finalObs = new Float32Array(E * D);
    for (let t = 0; t < T; t++) {
      r.obs.set(this.obs, t * E * D);
      const act = await this.acting.act(this.obs);
      for (let e = 0; e < E; e++) {
        const i = t * E + e;
        r.valid[i] = this.pendingReset[e] ? 0 : 1;
        r.actions[i] = act.actions[e];
        r.logProbs[i] = act.logProbs[e];
        r.values[i] = act.values[e];
        // next-step mode: this obs is the final obs of the episode truncated at t − 1.
        if (nextStepMode && this.pendingReset[e] && t > 0) {
          const prev = i - E;
          if (r.truncated[prev] && !r.terminated[prev]) r.bootstrapValues[prev] = act.values[e];
        }
      }
      const step = await this.env.step(Array.from(act.actions, (a) => Math.round(a)));
      const needFinalValue: number[] = [];
      for (let e = 0; e < E; e++) {
        const i = t * E + e;
        if (!r.valid[i]) {
          this.pendingReset[e] = false;
          continue;
        }
        const raw = step.rewards[e];
        const term = !!step.terminated[e];
        const trunc = !!step.truncated[e];
        r.rewards[i] = shapeReward(raw, term, trunc, step.info?.outcome?.[e], this.shaping);
        r.terminated[i] = term ? 1 : 0;
        r.truncated[i] = trunc ? 1 : 0;
        this.episodeReturn[e] += raw;
        this.episodeLength[e] += 1;
        if (!term && !trunc) continue;
        r.episodes.push({ return: this.episodeReturn[e], length: this.episodeLength[e] });
        this.episodeReturn[e] = 0;
        this.episodeLength[e] = 0;
        if (nextStepMode) this.pendingReset[e] = true;
        else if (trunc && !term) needFinalValue.push(e);
      }
      encodeBatch(step.obs, E, this.encoder, this.obs);
      if (needFinalValue.length > 0) {
        // same-step mode: bootstrap truncated episodes from V(info.finalObs), one batched forward.
        finalObs.set(this.obs);
        for (const e of needFinalValue) {
          const fo = step.info?.finalObs?.[e];
          if (!fo) throw new Error(`env ${e} was truncated in same-step autoreset mode without info.finalObs[${e}]`);
          this.encoder.encode(fo, finalObs, e * D);
        }
        const v = await this.acting.values(finalObs);
        for (const e of needFinalValue) r.bootstrapValues[t * E + e] = v[e];
      }
    }
    r.lastValues = await this.acting.values(this.obs);
    if (nextStepMode) {
      for (let e = 0; e < E; e++) {
        const i = (T - 1) * E + e;
        if (r.valid[i] && r.truncated[i] && !r.terminated[i]) r.bootstrapValues[i] = r.lastValues[e];
      }
    }
    return r;
  }
}
