import type { NetworkSpec } from '../nn/actor-critic';
import type { NetworkConfig } from './config';

/**
 * Turns env observations into network inputs: flattens, scales (e.g. 1/255 for bytes) and,
 * for pixels delivered as [H, W, C], transposes to the CNN's [C, H, W].
 */
export class ObsEncoder {
  readonly envSize: number;
  readonly netSize: number;
  private readonly hwc: { h: number; w: number; c: number } | null;

  constructor(
    readonly obsShape: readonly number[],
    readonly scale: number,
    readonly pixelLayout: 'hwc' | 'chw',
  ) {
    this.envSize = obsShape.reduce((a, b) => a * b, 1);
    this.netSize = this.envSize;
    this.hwc = obsShape.length === 3 && pixelLayout === 'hwc' ? { h: obsShape[0], w: obsShape[1], c: obsShape[2] } : null;
  }

  /** Encodes one observation into out[offset .. offset + netSize). */
  encode(obs: ArrayLike<number>, out: Float32Array, offset: number): void {
    if (obs.length !== this.envSize) throw new Error(`observation has ${obs.length} values, expected ${this.envSize} ([${this.obsShape}])`);
    const s = this.scale;
    if (!this.hwc) {
      for (let j = 0; j < this.envSize; j++) out[offset + j] = obs[j] * s;
      return;
    }
    const { h, w, c } = this.hwc;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let ch = 0; ch < c; ch++) out[offset + (ch * h + y) * w + x] = obs[(y * w + x) * c + ch] * s;
  }
}

/** The network for an observation shape: MLP for vectors, Nature-CNN for images (or keypoints when asked), the scorer for a feature row per action. */
export function resolveNetworkSpec(obsShape: readonly number[], numActions: number, net: NetworkConfig): NetworkSpec {
  const rowPerAction = obsShape.length === 2 && obsShape[0] === numActions;
  const kind = net.kind === 'auto' ? (obsShape.length === 3 ? 'cnn' : rowPerAction ? 'scorer' : 'mlp') : net.kind;
  if (kind === 'scorer') {
    if (!rowPerAction) throw new Error(`the scorer needs an observation of one feature row per action ([${numActions}, features]), got [${obsShape}]`);
    return { kind: 'scorer', numActions, featuresPerAction: obsShape[1], hidden: [...net.hidden], activation: net.activation };
  }
  if (kind === 'mlp') {
    return { kind: 'mlp', obsSize: obsShape.reduce((a, b) => a * b, 1), numActions, hidden: [...net.hidden], activation: net.activation };
  }
  if (obsShape.length !== 3) throw new Error(`the ${kind === 'cnn' ? 'CNN' : 'keypoint network'} needs a 3-D observation shape, got [${obsShape}]`);
  const [a, b, c] = obsShape;
  const inputShape: [number, number, number] = net.pixelLayout === 'hwc' ? [c, a, b] : [a, b, c];
  if (kind === 'keypoints') {
    const { channels, kernels, strides } = net.keypoints;
    return { kind, inputShape, numActions, channels: [...channels], kernels: [...kernels], strides: [...strides], hidden: net.cnnHidden };
  }
  return { kind: 'cnn', inputShape, numActions, channels: [...net.cnnChannels], hidden: net.cnnHidden };
}

export function encoderFor(obsShape: readonly number[], net: NetworkConfig): ObsEncoder {
  return new ObsEncoder(obsShape, net.obsScale, net.pixelLayout);
}
