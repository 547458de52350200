import type { Env, ResetOptions, ResetResult, StepResult } from '../core/env';
import { boxSpace, discreteSpace, type Space } from '../core/spaces';
import { SeededRandom } from '../random/seeded-random';

/**
 * CartPole-v1 with Gymnasium's dynamics (classic_control/cartpole.py): Euler integration,
 * tau 0.02 s, force ±10 N, termination at |θ| > 12° or |x| > 2.4, truncation after 500
 * steps (the TimeLimit of CartPole-v1), reward 1 on every step including the last, initial
 * state uniform in ±0.05. The state is kept in float64 (numpy does the same) and observed as
 * float32. Random numbers come from the project's SeededRandom, so sequences differ from numpy's.
 */
export const CARTPOLE = {
  gravity: 9.8,
  massCart: 1.0,
  massPole: 0.1,
  /** Half the pole's length. */
  length: 0.5,
  forceMag: 10.0,
  tau: 0.02,
  thetaThresholdRadians: (12 * 2 * Math.PI) / 360,
  xThreshold: 2.4,
  maxEpisodeSteps: 500,
  initBound: 0.05,
  obsSize: 4,
  numActions: 2,
} as const;

const TOTAL_MASS = CARTPOLE.massPole + CARTPOLE.massCart;
const POLEMASS_LENGTH = CARTPOLE.massPole * CARTPOLE.length;

export interface CartPoleState {
  /** [x, x_dot, theta, theta_dot] */
  physics: [number, number, number, number];
  elapsedSteps: number;
  /** SeededRandom state words. */
  rng: [number, number, number, number];
}

/** CartPole-v1 as a Gymnasium Env (synchronous: every call returns its result directly). */
export class CartPole implements Env<Float32Array, number> {
  readonly observationSpace: Space = boxSpace([CARTPOLE.obsSize], 'float32');
  readonly actionSpace: Space = discreteSpace(CARTPOLE.numActions, ['left', 'right']);
  private s: [number, number, number, number] = [0, 0, 0, 0];
  private elapsed = 0;
  private rng: SeededRandom;

  constructor(seed = 0) {
    this.rng = new SeededRandom(seed);
  }

  private uniform(low: number, high: number): number {
    return low + (high - low) * this.rng.next();
  }

  /** A seed re-seeds the RNG (Gymnasium's reset(seed=...)); without one the RNG continues. */
  reset(options: ResetOptions = {}): ResetResult<Float32Array> {
    if (options.seed !== undefined) this.rng = new SeededRandom(options.seed);
    const b = CARTPOLE.initBound;
    this.s = [this.uniform(-b, b), this.uniform(-b, b), this.uniform(-b, b), this.uniform(-b, b)];
    this.elapsed = 0;
    return { observation: this.observe(), info: {} };
  }

  step(action: number): StepResult<Float32Array> {
    if (action !== 0 && action !== 1) throw new Error(`CartPole action must be 0 or 1, got ${action}`);
    let [x, xDot, theta, thetaDot] = this.s;
    const force = action === 1 ? CARTPOLE.forceMag : -CARTPOLE.forceMag;
    const cosTheta = Math.cos(theta);
    const sinTheta = Math.sin(theta);
    const temp = (force + POLEMASS_LENGTH * thetaDot ** 2 * sinTheta) / TOTAL_MASS;
    const thetaAcc = (CARTPOLE.gravity * sinTheta - cosTheta * temp) / (CARTPOLE.length * (4.0 / 3.0 - (CARTPOLE.massPole * cosTheta ** 2) / TOTAL_MASS));
    const xAcc = temp - (POLEMASS_LENGTH * thetaAcc * cosTheta) / TOTAL_MASS;
    // Gymnasium's default "euler" integrator: positions use the old velocities.
    x += CARTPOLE.tau * xDot;
    xDot += CARTPOLE.tau * xAcc;
    theta += CARTPOLE.tau * thetaDot;
    thetaDot += CARTPOLE.tau * thetaAcc;
    this.s = [x, xDot, theta, thetaDot];
    this.elapsed += 1;
    const terminated = x < -CARTPOLE.xThreshold || x > CARTPOLE.xThreshold || theta < -CARTPOLE.thetaThresholdRadians || theta > CARTPOLE.thetaThresholdRadians;
    // Like Gymnasium's TimeLimit, truncation is reported even when the last step also terminates.
    const truncated = this.elapsed >= CARTPOLE.maxEpisodeSteps;
    return { observation: this.observe(), reward: 1, terminated, truncated, info: {} };
  }

  observe(): Float32Array {
    return Float32Array.from(this.s);
  }

  close(): void {}

  getState(): CartPoleState {
    return { physics: [...this.s], elapsedSteps: this.elapsed, rng: this.rng.getState() };
  }

  setState(state: unknown): void {
    const s = state as CartPoleState;
    if (!s || !Array.isArray(s.physics) || !Array.isArray(s.rng) || s.rng.length !== 4) throw new Error('CartPole.setState: not a CartPole state');
    this.s = [...s.physics];
    this.elapsed = s.elapsedSteps;
    this.rng.setState(s.rng);
  }
}
