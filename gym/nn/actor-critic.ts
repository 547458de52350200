import type { Activation, Backend } from './backend';
import { Conv2d, Dense, SpatialSoftmax, Tower, type Layer } from './layers';
import { ParamStore } from './params';
import { Rng } from '../random/rng';
import { reshape, type Tensor } from './tensor';

/**
 * Serializable description of an actor-critic network (stored in checkpoints).
 * - mlp: separate actor and critic towers on a state vector (CleanRL ppo.py).
 * - cnn: Nature-CNN trunk (conv 8×8 s4, 4×4 s2, 3×3 s1, fc) shared by both heads
 *   (CleanRL ppo_atari.py). Input is NCHW [channels, height, width] per sample.
 * - keypoints: two conv layers whose last maps go through a spatial soft-argmax (Levine et al.
 *   2016), one (x, y) per channel, then a fully connected layer shared by both heads. Where a
 *   game is about where things are relative to each other (a snake's head and its food), a
 *   difference of positions is one linear step, which a flattened conv map learns slowly.
 * - scorer: the input is one feature row per action ([numActions, featuresPerAction] per
 *   sample); the actor is one small MLP applied to every row, its output that action's logit,
 *   so what it learns about one action holds for all (a permutation-equivariant policy, as
 *   for afterstate features). The critic is an MLP on the whole input.
 */
export type NetworkSpec =
  | { kind: 'mlp'; obsSize: number; numActions: number; hidden: number[]; activation: Activation }
  | { kind: 'scorer'; numActions: number; featuresPerAction: number; hidden: number[]; activation: Activation }
  | {
      kind: 'cnn';
      inputShape: [channels: number, height: number, width: number];
      numActions: number;
      /** Output channels of the three conv layers; Nature-CNN uses [32, 64, 64]. */
      channels: [number, number, number];
      /** Width of the fully connected layer; Nature-CNN uses 512. */
      hidden: number;
    }
  | {
      kind: 'keypoints';
      inputShape: [channels: number, height: number, width: number];
      numActions: number;
      /** Output channels of the two conv layers; each of the second's maps becomes one keypoint. */
      channels: [number, number];
      /** Kernel and stride of the two conv layers (e.g. [8, 3] and [4, 1]). */
      kernels: [number, number];
      strides: [number, number];
      /** Width of the fully connected layer over the keypoints. */
      hidden: number;
    };

export function networkInputSize(spec: NetworkSpec): number {
  if (spec.kind === 'mlp') return spec.obsSize;
  if (spec.kind === 'scorer') return spec.numActions * spec.featuresPerAction;
  // cnn and keypoints: an NCHW image
  return spec.inputShape[0] * spec.inputShape[1] * spec.inputShape[2];
}

const SQRT2 = Math.SQRT2;
/** CleanRL's head gains: a near-uniform initial policy, a unit-scale value head. */
const ACTOR_HEAD_GAIN = 0.01;
const CRITIC_HEAD_GAIN = 1;

export interface ForwardResult {
  /** [B, numActions] */
  logits: Tensor;
  /** [B, 1] */
  values: Tensor;
}

/** Policy (categorical logits) and value function on one backend, all parameters in one ParamStore. */
export class ActorCritic {
  readonly store: ParamStore;
  readonly inputSize: number;
  readonly numActions: number;
  private readonly trunk: Tower | null;
  private readonly actor: Tower;
  private readonly critic: Tower;
  /** The scorer's actor reads rows of this many features, one row per action. */
  private readonly rowsPerSample: number;
  /** dL/d(trunk output), per batch size (CNN only). */
  private readonly trunkGrads = new Map<number, Tensor>();

  /**
   * Parameters get CleanRL's orthogonal initialisation from `seed`; seed null leaves them zero
   * (faster, for networks whose parameters are loaded from a checkpoint right after).
   */
  constructor(
    readonly backend: Backend,
    readonly spec: NetworkSpec,
    seed: number | null,
  ) {
    const rng = seed === null ? null : new Rng(seed);
    this.store = new ParamStore(backend);
    this.numActions = spec.numActions;
    this.inputSize = networkInputSize(spec);
    this.rowsPerSample = spec.kind === 'scorer' ? spec.numActions : 1;
    if (spec.kind === 'scorer') {
      this.trunk = null;
      this.actor = mlpTower(this.store, 'actor', spec.featuresPerAction, spec.hidden, spec.activation, 1, ACTOR_HEAD_GAIN, rng);
      this.critic = mlpTower(this.store, 'critic', this.inputSize, spec.hidden, spec.activation, 1, CRITIC_HEAD_GAIN, rng);
    } else if (spec.kind === 'mlp') {
      this.trunk = null;
      this.actor = mlpTower(this.store, 'actor', spec.obsSize, spec.hidden, spec.activation, spec.numActions, ACTOR_HEAD_GAIN, rng);
      this.critic = mlpTower(this.store, 'critic', spec.obsSize, spec.hidden, spec.activation, 1, CRITIC_HEAD_GAIN, rng);
    } else {
      this.trunk = spec.kind === 'cnn' ? natureCnnTrunk(this.store, spec, rng) : keypointTrunk(this.store, spec, rng);
      this.actor = new Tower([new Dense(this.store, 'actor.head', spec.hidden, spec.numActions, 'none', ACTOR_HEAD_GAIN, rng)]);
      this.critic = new Tower([new Dense(this.store, 'critic.head', spec.hidden, 1, 'none', CRITIC_HEAD_GAIN, rng)]);
    }
    this.store.allocate();
  }

  get paramCount(): number {
    return this.store.count;
  }

  /** obs: [B, inputSize]. Outputs live in workspace buffers until the next forward with the same B. */
  forward(obs: Tensor): ForwardResult {
    const features = this.trunk ? this.trunk.forward(this.backend, obs) : obs;
    const batch = obs.size / this.inputSize;
    // The scorer's actor sees [B·A, F] rows of the same storage, and its [B·A, 1] scores are the [B, A] logits.
    const actorIn = this.rowsPerSample > 1 ? reshape(features, [batch * this.rowsPerSample, this.actor.inSize]) : features;
    const scores = this.actor.forward(this.backend, actorIn);
    const logits = this.rowsPerSample > 1 ? reshape(scores, [batch, this.numActions]) : scores;
    return { logits, values: this.critic.forward(this.backend, features) };
  }

  /**
   * Writes the gradient of every parameter for the last forward pass, given dL/dlogits and
   * dL/dvalues. A null head gradient means that head does not contribute (its parameters
   * get zero gradients), e.g. critic-only value pretraining.
   */
  backward(dLogits: Tensor | null, dValues: Tensor | null): void {
    if (!dLogits && !dValues) throw new Error('backward needs at least one head gradient');
    const b = this.backend;
    if (!dLogits) this.store.zeroGrads(this.actor.paramNames);
    if (!dValues) this.store.zeroGrads(this.critic.paramNames);
    if (!this.trunk) {
      if (dLogits) this.actor.backward(b, this.rowsPerSample > 1 ? reshape(dLogits, [dLogits.size, 1]) : dLogits, null, false);
      if (dValues) this.critic.backward(b, dValues, null, false);
      return;
    }
    const batch = (dLogits ?? (dValues as Tensor)).shape[0];
    let dFeatures = this.trunkGrads.get(batch);
    if (!dFeatures) {
      dFeatures = b.tensor([batch, this.trunk.outSize]);
      this.trunkGrads.set(batch, dFeatures);
    }
    if (dLogits) this.actor.backward(b, dLogits, dFeatures, false);
    if (dValues) this.critic.backward(b, dValues, dFeatures, dLogits !== null);
    this.trunk.backward(b, dFeatures, null, false);
  }
}

function mlpTower(
  store: ParamStore,
  name: string,
  inSize: number,
  hidden: number[],
  activation: Activation,
  outSize: number,
  headGain: number,
  rng: Rng | null,
): Tower {
  const layers: Layer[] = [];
  let width = inSize;
  hidden.forEach((h, i) => {
    layers.push(new Dense(store, `${name}.fc${i + 1}`, width, h, activation, SQRT2, rng));
    width = h;
  });
  layers.push(new Dense(store, `${name}.out`, width, outSize, 'none', headGain, rng));
  return new Tower(layers);
}

type ImageSpec<K extends NetworkSpec['kind']> = Extract<NetworkSpec, { kind: K }>;

function natureCnnTrunk(store: ParamStore, spec: ImageSpec<'cnn'>, rng: Rng | null): Tower {
  const [c, h, w] = spec.inputShape;
  const [c1, c2, c3] = spec.channels;
  const conv1 = new Conv2d(store, 'trunk.conv1', { channels: c, height: h, width: w }, c1, 8, 4, 'relu', SQRT2, rng);
  const conv2 = new Conv2d(store, 'trunk.conv2', conv1.outShape, c2, 4, 2, 'relu', SQRT2, rng);
  const conv3 = new Conv2d(store, 'trunk.conv3', conv2.outShape, c3, 3, 1, 'relu', SQRT2, rng);
  const fc = new Dense(store, 'trunk.fc', conv3.outSize, spec.hidden, 'relu', SQRT2, rng);
  return new Tower([conv1, conv2, conv3, fc]);
}

function keypointTrunk(store: ParamStore, spec: ImageSpec<'keypoints'>, rng: Rng | null): Tower {
  const [c, h, w] = spec.inputShape;
  const [c1, c2] = spec.channels;
  const [k1, k2] = spec.kernels;
  const [s1, s2] = spec.strides;
  const conv1 = new Conv2d(store, 'trunk.conv1', { channels: c, height: h, width: w }, c1, k1, s1, 'relu', SQRT2, rng);
  // No activation before the soft-argmax: its input is a log-probability map, and a ReLU would flatten its negative half.
  const conv2 = new Conv2d(store, 'trunk.conv2', conv1.outShape, c2, k2, s2, 'none', SQRT2, rng);
  const keypoints = new SpatialSoftmax(conv2.outShape);
  const fc = new Dense(store, 'trunk.fc', keypoints.outSize, spec.hidden, 'relu', SQRT2, rng);
  return new Tower([conv1, conv2, keypoints, fc]);
}
