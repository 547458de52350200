import type { Backend } from './backend';
import { makeView, shapeSize, type Tensor } from './tensor';

const PARAM_ALIGN = 4;
const alignUp = (n: number, a: number) => Math.ceil(n / a) * a;

export interface ParamEntry {
  name: string;
  shape: number[];
  /** Element offset in the flat parameter (and gradient) buffer. */
  offset: number;
  size: number;
}

/**
 * Every parameter of a network in one flat device buffer, with a same-layout gradient
 * buffer. One buffer means one dispatch for the gradient norm and one for Adam, and a
 * checkpoint is a single blob. Layers address their weights through views. Gaps between
 * entries (alignment padding) stay zero: their gradient is never written, so Adam leaves them.
 */
export class ParamStore {
  readonly entries: ParamEntry[] = [];
  private readonly byName = new Map<string, ParamEntry>();
  private values: Tensor | null = null;
  private gradients: Tensor | null = null;
  private initial: Float32Array[] = [];

  constructor(private readonly backend: Backend) {}

  /** Registers a parameter with its initial values; call `allocate()` after the last one. */
  add(name: string, shape: number[], init: Float32Array): ParamEntry {
    if (this.values) throw new Error('ParamStore is already allocated');
    if (this.byName.has(name)) throw new Error(`duplicate parameter ${name}`);
    const size = shapeSize(shape);
    if (init.length !== size) throw new Error(`${name}: init has ${init.length} values, shape needs ${size}`);
    // Offsets are multiples of 4 elements (16 bytes) so kernels may load parameters as vec4.
    const last = this.entries[this.entries.length - 1];
    const entry = { name, shape, offset: last ? alignUp(last.offset + last.size, PARAM_ALIGN) : 0, size };
    this.entries.push(entry);
    this.byName.set(name, entry);
    this.initial.push(init);
    return entry;
  }

  allocate(): void {
    const flat = new Float32Array(this.size);
    this.entries.forEach((e, i) => flat.set(this.initial[i], e.offset));
    this.initial = [];
    this.values = this.backend.tensor([this.size], flat);
    this.gradients = this.backend.tensor([this.size]);
  }

  /** Number of parameters (without alignment padding). */
  get count(): number {
    return this.entries.reduce((n, e) => n + e.size, 0);
  }

  /** Length of the flat buffers (with alignment padding). */
  get size(): number {
    const last = this.entries[this.entries.length - 1];
    return last ? last.offset + last.size : 0;
  }

  get params(): Tensor {
    if (!this.values) throw new Error('ParamStore is not allocated');
    return this.values;
  }

  get grads(): Tensor {
    if (!this.gradients) throw new Error('ParamStore is not allocated');
    return this.gradients;
  }

  entry(name: string): ParamEntry {
    const e = this.byName.get(name);
    if (!e) throw new Error(`unknown parameter ${name}`);
    return e;
  }

  param(name: string): Tensor {
    const e = this.entry(name);
    return makeView(this.params, e.offset, e.shape);
  }

  grad(name: string): Tensor {
    const e = this.entry(name);
    return makeView(this.grads, e.offset, e.shape);
  }

  /** Zeroes the gradients of the named parameters (for heads that got no gradient). */
  zeroGrads(names: readonly string[]): void {
    for (const n of names) this.backend.fill(this.grad(n), 0);
  }
}
