import type { AutoresetMode, VectorEnvLike, VectorResetResult, VectorStepResult } from '../../ppo/vector-env';
import { CARTPOLE, CartPole, type CartPoleState } from './cartpole';

export interface CartPoleVectorOptions {
  /** Gymnasium 1.0 autoreset semantics; see gym/ppo/vector-env.ts. Default 'same-step'. */
  autoresetMode?: AutoresetMode;
  /** Seed of env i's RNG before the first seeded reset (default i). */
  seed?: number;
}

interface CartPoleVectorState {
  envs: CartPoleState[];
  pendingReset: boolean[];
}

/** `num` independent CartPoles stepped in lock-step (Gymnasium's SyncVectorEnv). */
export class CartPoleVectorEnv implements VectorEnvLike {
  readonly autoresetMode: AutoresetMode;
  readonly obsSize = CARTPOLE.obsSize;
  readonly numActions = CARTPOLE.numActions;
  private readonly envs: CartPole[];
  /** next-step mode: envs whose episode ended on the previous step. */
  private pendingReset: boolean[];

  constructor(
    readonly num: number,
    options: CartPoleVectorOptions = {},
  ) {
    if (!Number.isInteger(num) || num < 1) throw new Error(`num must be a positive integer, got ${num}`);
    this.autoresetMode = options.autoresetMode ?? 'same-step';
    this.envs = Array.from({ length: num }, (_, i) => new CartPole((options.seed ?? 0) + i));
    this.pendingReset = new Array(num).fill(false);
  }

  reset(seed?: number | readonly number[]): VectorResetResult {
    if (Array.isArray(seed) && seed.length !== this.num) throw new Error(`expected ${this.num} seeds, got ${seed.length}`);
    const seedOf = (i: number): number | undefined =>
      seed === undefined ? undefined : typeof seed === 'number' ? seed + i : (seed as readonly number[])[i];
    this.pendingReset.fill(false);
    return { obs: this.envs.map((env, i) => env.reset(seedOf(i))) };
  }

  step(actions: readonly number[]): VectorStepResult {
    if (actions.length !== this.num) throw new Error(`expected ${this.num} actions, got ${actions.length}`);
    const obs: Float32Array[] = [];
    const rewards = new Float32Array(this.num);
    const terminated: boolean[] = [];
    const truncated: boolean[] = [];
    const finalObs: (Float32Array | null)[] = [];
    this.envs.forEach((env, i) => {
      if (this.pendingReset[i]) {
        // next-step autoreset: this call only resets env i; its action is ignored.
        this.pendingReset[i] = false;
        obs.push(env.reset());
        terminated.push(false);
        truncated.push(false);
        finalObs.push(null);
        return;
      }
      const r = env.step(actions[i]);
      rewards[i] = r.reward;
      terminated.push(r.terminated);
      truncated.push(r.truncated);
      const done = r.terminated || r.truncated;
      if (done && this.autoresetMode === 'same-step') {
        finalObs.push(r.obs);
        obs.push(env.reset());
      } else {
        if (done) this.pendingReset[i] = true;
        finalObs.push(null);
        obs.push(r.obs);
      }
    });
    return { obs, rewards, terminated, truncated, info: this.autoresetMode === 'same-step' ? { finalObs } : {} };
  }

  getState(): CartPoleVectorState {
    return { envs: this.envs.map((e) => e.getState()), pendingReset: [...this.pendingReset] };
  }

  setState(state: unknown): void {
    const s = state as CartPoleVectorState;
    if (!s || !Array.isArray(s.envs) || s.envs.length !== this.num) throw new Error('CartPoleVectorEnv.setState: state does not match this env');
    s.envs.forEach((e, i) => this.envs[i].setState(e));
    this.pendingReset = [...s.pendingReset];
  }
}
