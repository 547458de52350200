import type { Activation, Backend, ConvGeometry, MapGeometry } from './backend';
import { convOutputSize } from './backend';
import { orthogonal } from './init';
import type { ParamStore } from './params';
import type { Rng } from '../random/rng';
import type { Tensor } from './tensor';

/**
 * A layer maps [B, inSize] to [B, outSize] per sample (images are flattened NCHW) and owns
 * its parameters in a ParamStore. Backward writes (never accumulates) its parameter
 * gradients; the input gradient can be written or accumulated.
 */
export interface Layer {
  readonly inSize: number;
  readonly outSize: number;
  readonly activation: Activation;
  readonly paramNames: readonly string[];
  forward(b: Backend, x: Tensor, y: Tensor): void;
  /**
   * dz: gradient w.r.t. the pre-activation (already computed by the caller from dy).
   * dx: where to write the input gradient, or null when the input needs none.
   */
  backward(b: Backend, x: Tensor, dz: Tensor, dx: Tensor | null, accumulateDx: boolean): void;
}

export class Dense implements Layer {
  readonly paramNames: readonly string[];
  private readonly w: string;
  private readonly bias: string;

  constructor(
    private readonly store: ParamStore,
    name: string,
    readonly inSize: number,
    readonly outSize: number,
    readonly activation: Activation,
    gain: number,
    /** null: zero weights (parameters to be loaded from a checkpoint). */
    rng: Rng | null,
  ) {
    this.w = `${name}.weight`;
    this.bias = `${name}.bias`;
    // Weight stored [in, out] so the forward pass is x·W without a transpose.
    store.add(this.w, [inSize, outSize], rng ? orthogonal(rng, inSize, outSize, gain) : new Float32Array(inSize * outSize));
    store.add(this.bias, [outSize], new Float32Array(outSize));
    this.paramNames = [this.w, this.bias];
  }

  forward(b: Backend, x: Tensor, y: Tensor): void {
    b.matmul(x, this.store.param(this.w), y, { bias: this.store.param(this.bias), activation: this.activation });
  }

  backward(b: Backend, x: Tensor, dz: Tensor, dx: Tensor | null, accumulateDx: boolean): void {
    b.matmul(x, dz, this.store.grad(this.w), { transA: true }); // dW = xᵀ·dz
    b.sumRows(dz, this.store.grad(this.bias)); // db = Σ_rows dz
    if (dx) b.matmul(dz, this.store.param(this.w), dx, { transB: true, accumulate: accumulateDx }); // dx = dz·Wᵀ
  }
}

export interface ImageShape {
  channels: number;
  height: number;
  width: number;
}

export class Conv2d implements Layer {
  readonly paramNames: readonly string[];
  readonly inSize: number;
  readonly outSize: number;
  readonly outShape: ImageShape;
  private readonly w: string;
  private readonly bias: string;

  constructor(
    private readonly store: ParamStore,
    name: string,
    readonly inShape: ImageShape,
    readonly outChannels: number,
    readonly kernel: number,
    readonly stride: number,
    readonly activation: Activation,
    gain: number,
    rng: Rng | null,
  ) {
    const { outHeight, outWidth } = convOutputSize(this.geometry(1));
    this.outShape = { channels: outChannels, height: outHeight, width: outWidth };
    this.inSize = inShape.channels * inShape.height * inShape.width;
    this.outSize = outChannels * outHeight * outWidth;
    this.w = `${name}.weight`;
    this.bias = `${name}.bias`;
    const rows = inShape.channels * kernel * kernel;
    store.add(this.w, [rows, outChannels], rng ? orthogonal(rng, rows, outChannels, gain) : new Float32Array(rows * outChannels));
    store.add(this.bias, [outChannels], new Float32Array(outChannels));
    this.paramNames = [this.w, this.bias];
  }

  geometry(batch: number): ConvGeometry {
    return {
      batch,
      inChannels: this.inShape.channels,
      inHeight: this.inShape.height,
      inWidth: this.inShape.width,
      outChannels: this.outChannels,
      kernel: this.kernel,
      stride: this.stride,
    };
  }

  forward(b: Backend, x: Tensor, y: Tensor): void {
    const g = this.geometry(x.size / this.inSize);
    b.conv2d(x, this.store.param(this.w), this.store.param(this.bias), y, g, this.activation);
  }

  backward(b: Backend, x: Tensor, dz: Tensor, dx: Tensor | null, accumulateDx: boolean): void {
    if (accumulateDx) throw new Error('Conv2d cannot accumulate its input gradient');
    const g = this.geometry(x.size / this.inSize);
    b.conv2dBackwardWeight(dz, x, this.store.grad(this.w), g);
    b.conv2dBackwardBias(dz, this.store.grad(this.bias), g);
    if (dx) b.conv2dBackwardInput(dz, this.store.param(this.w), dx, g);
  }
}

/**
 * Spatial soft-argmax (Levine et al. 2016, "End-to-End Training of Deep Visuomotor Policies"):
 * each input map becomes the (x, y) its softmax expects, so a channel that lights up on one
 * object reports where that object is, as two numbers a linear layer can subtract from another
 * object's. No parameters; the conv before it sets the sharpness (its scale is the inverse
 * temperature).
 */
export class SpatialSoftmax implements Layer {
  readonly paramNames: readonly string[] = [];
  readonly activation = 'none' as const;
  readonly inSize: number;
  readonly outSize: number;

  constructor(readonly inShape: ImageShape) {
    this.inSize = inShape.channels * inShape.height * inShape.width;
    this.outSize = inShape.channels * 2;
  }

  private geometry(x: Tensor): MapGeometry {
    return { batch: x.size / this.inSize, channels: this.inShape.channels, height: this.inShape.height, width: this.inShape.width };
  }

  forward(b: Backend, x: Tensor, y: Tensor): void {
    b.spatialSoftmax(x, y, this.geometry(x));
  }

  backward(b: Backend, x: Tensor, dz: Tensor, dx: Tensor | null, accumulateDx: boolean): void {
    if (accumulateDx) throw new Error('SpatialSoftmax cannot accumulate its input gradient');
    if (dx) b.spatialSoftmaxBackward(x, dz, dx, this.geometry(x));
  }
}

/** Per-batch-size buffers of a tower: outputs and gradients of every layer. */
interface TowerWorkspace {
  ys: Tensor[];
  /** Gradient w.r.t. layer i's output (the last one is supplied by the caller). */
  dys: (Tensor | null)[];
  /** Gradient w.r.t. layer i's pre-activation (null when the activation is the identity). */
  dzs: (Tensor | null)[];
}

/** A chain of layers with workspaces allocated once per batch size. */
export class Tower {
  private readonly workspaces = new Map<number, TowerWorkspace>();
  private lastInput: Tensor | null = null;

  constructor(readonly layers: Layer[]) {
    for (let i = 1; i < layers.length; i++) {
      if (layers[i].inSize !== layers[i - 1].outSize) throw new Error(`layer ${i} expects ${layers[i].inSize} inputs, gets ${layers[i - 1].outSize}`);
    }
  }

  get inSize(): number {
    return this.layers[0].inSize;
  }

  get outSize(): number {
    return this.layers[this.layers.length - 1].outSize;
  }

  get paramNames(): string[] {
    return this.layers.flatMap((l) => l.paramNames);
  }

  private workspace(b: Backend, batch: number): TowerWorkspace {
    let ws = this.workspaces.get(batch);
    if (!ws) {
      ws = {
        ys: this.layers.map((l) => b.tensor([batch, l.outSize])),
        dys: this.layers.map((l, i) => (i < this.layers.length - 1 ? b.tensor([batch, l.outSize]) : null)),
        dzs: this.layers.map((l) => (l.activation === 'none' ? null : b.tensor([batch, l.outSize]))),
      };
      this.workspaces.set(batch, ws);
    }
    return ws;
  }

  /** x: [B, inSize]. Returns the output [B, outSize] (a workspace buffer, valid until the next forward). */
  forward(b: Backend, x: Tensor): Tensor {
    const batch = x.size / this.inSize;
    if (!Number.isInteger(batch)) throw new Error(`tower input of ${x.size} elements is not a multiple of ${this.inSize}`);
    const ws = this.workspace(b, batch);
    let input = x;
    this.layers.forEach((layer, i) => {
      layer.forward(b, input, ws.ys[i]);
      input = ws.ys[i];
    });
    this.lastInput = x;
    return ws.ys[ws.ys.length - 1];
  }

  /** Backward through the last forward; dOut: [B, outSize]. */
  backward(b: Backend, dOut: Tensor, dInput: Tensor | null, accumulateDInput: boolean): void {
    const x = this.lastInput;
    if (!x) throw new Error('Tower.backward before forward');
    const ws = this.workspace(b, x.size / this.inSize);
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i];
      const dy = i === this.layers.length - 1 ? dOut : (ws.dys[i] as Tensor);
      let dz = dy;
      if (layer.activation !== 'none') {
        dz = ws.dzs[i] as Tensor;
        b.activationBackward(dy, ws.ys[i], layer.activation, dz);
      }
      const input = i === 0 ? x : ws.ys[i - 1];
      const dx = i === 0 ? dInput : ws.dys[i - 1];
      layer.backward(b, input, dz, dx, i === 0 && accumulateDInput);
    }
  }
}
