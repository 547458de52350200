import { OPT_STATE_WIDTH, OptState, type Backend } from './backend';
import type { ParamStore } from './params';
import { makeView, type Tensor } from './tensor';

export interface AdamOptions {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  /** Global gradient-norm clip (torch clip_grad_norm_); 0 disables clipping. */
  maxGradNorm: number;
}

export interface AdamSnapshot {
  step: number;
  m: Float32Array;
  v: Float32Array;
}

/**
 * Adam over a ParamStore's flat buffers, entirely on the device: a step is three dispatches
 * (Σg², step/clip-scale, update) and never waits for a read-back.
 */
export class Adam {
  readonly m: Tensor;
  readonly v: Tensor;
  /** [OPT_STATE_WIDTH], layout OptState. */
  readonly state: Tensor;

  constructor(
    private readonly backend: Backend,
    private readonly store: ParamStore,
    options: AdamOptions,
  ) {
    this.m = backend.tensor([store.size]);
    this.v = backend.tensor([store.size]);
    const s = new Float32Array(OPT_STATE_WIDTH);
    s[OptState.lr] = options.lr;
    s[OptState.beta1] = options.beta1;
    s[OptState.beta2] = options.beta2;
    s[OptState.eps] = options.eps;
    s[OptState.maxGradNorm] = options.maxGradNorm;
    s[OptState.clipScale] = 1;
    this.state = backend.tensor([OPT_STATE_WIDTH], s);
  }

  setLearningRate(lr: number): void {
    this.backend.write(this.state, [lr], OptState.lr);
  }

  /** Clips the store's current gradients by global norm and applies one Adam step. */
  step(): void {
    const b = this.backend;
    b.sumSquares(this.store.grads, makeView(this.state, OptState.gradSumSq, [1]));
    b.adamPrepare(this.state);
    b.adamUpdate(this.store.params, this.store.grads, this.m, this.v, this.state);
  }

  /** The pre-clip gradient norm of the last step (device value, for logging). */
  get gradNormView(): Tensor {
    return makeView(this.state, OptState.gradNorm, [1]);
  }

  async snapshot(): Promise<AdamSnapshot> {
    const [m, v, s] = await this.backend.readMany([this.m, this.v, this.state]);
    return { step: s[OptState.step], m, v };
  }

  restore(snap: AdamSnapshot): void {
    this.backend.write(this.m, snap.m);
    this.backend.write(this.v, snap.v);
    this.backend.write(this.state, [snap.step], OptState.step);
  }

  /** Fresh moments and step counter (e.g. after critic pretraining). */
  reset(): void {
    this.backend.fill(this.m, 0);
    this.backend.fill(this.v, 0);
    this.backend.write(this.state, [0], OptState.step);
  }
}
