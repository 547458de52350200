import type { ActorCritic } from '../nn/actor-critic';
import type { Tensor } from '../nn/tensor';

export interface ActResult {
  actions: Float32Array;
  logProbs: Float32Array;
  values: Float32Array;
}

/**
 * Runs the policy on a fixed-size batch of encoded observations: one upload, one forward
 * pass, on-device sampling, and a single read-back of actions, log-probs and values.
 * Sampling is seeded by (seed, counter, row); the counter advances once per call.
 */
export class ActingSession {
  private readonly obs: Tensor;
  private readonly actions: Tensor;
  private readonly logProbs: Tensor;
  /** [batch, actions] of 0/1, made when the first mask arrives. */
  private mask: Tensor | null = null;
  /** Number of sampling calls so far (part of a checkpoint, so resumed runs draw the same actions). */
  counter = 0;

  constructor(
    readonly net: ActorCritic,
    readonly batch: number,
    readonly seed: number,
  ) {
    const b = net.backend;
    this.obs = b.tensor([batch, net.inputSize]);
    this.actions = b.tensor([batch]);
    this.logProbs = b.tensor([batch]);
  }

  /** `mask`: [batch, actions] of 0/1 (the env's action masks); masked actions are never drawn. */
  async act(obs: Float32Array, mask: Float32Array | null = null): Promise<ActResult> {
    const b = this.net.backend;
    b.write(this.obs, obs);
    const { logits, values } = this.net.forward(this.obs);
    this.applyMask(logits, mask);
    b.sampleCategorical(logits, this.seed, this.counter++, this.actions, this.logProbs);
    const [actions, logProbs, v] = await b.readMany([this.actions, this.logProbs, values]);
    return { actions, logProbs, values: v };
  }

  async values(obs: Float32Array): Promise<Float32Array> {
    this.net.backend.write(this.obs, obs);
    return this.net.backend.read(this.net.forward(this.obs).values);
  }

  /** The logits, with masked actions at MASKED_LOGIT when a mask is given. */
  async logits(obs: Float32Array, mask: Float32Array | null = null): Promise<Float32Array> {
    this.net.backend.write(this.obs, obs);
    const { logits } = this.net.forward(this.obs);
    this.applyMask(logits, mask);
    return this.net.backend.read(logits);
  }

  private applyMask(logits: Tensor, mask: Float32Array | null): void {
    if (!mask) return;
    const b = this.net.backend;
    this.mask ??= b.tensor([this.batch, this.net.numActions]);
    b.write(this.mask, mask);
    b.maskLogits(logits, this.mask);
  }
}
