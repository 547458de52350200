import {
  assertSameSize,
  convOutputSize,
  type Activation,
  type Backend,
  type ConvGeometry,
  type MatmulOptions,
  type PolicyLossParams,
  type ValueLossParams,
} from '../backend';
import {
  checkAdam,
  checkConv,
  checkGather,
  checkPolicyLoss,
  checkSample,
  checkValueLoss,
  matmulDims,
} from '../shape-checks';
import { asMatrix, newStorageId, shapeSize, type Tensor, type TensorStorage } from '../tensor';
import {
  MATMUL_TILE,
  WG,
  activationBackwardKernel,
  adamPrepareKernel,
  adamUpdateKernel,
  conv2dBackwardBiasKernel,
  conv2dBackwardInputKernel,
  conv2dBackwardWeightKernel,
  conv2dKernel,
  copyKernel,
  entropyKernel,
  fillKernel,
  gatherRowsKernel,
  logSoftmaxKernel,
  matmulKernel,
  matmulVec4Eligible,
  ppoPolicyLossKernel,
  ppoValueLossKernel,
  sampleCategoricalKernel,
  sumRowsKernel,
  sumSquaresKernel,
  type KernelSource,
} from './kernels';

// The numeric flag values of the WebGPU spec, so the backend does not depend on the
// GPUBufferUsage / GPUMapMode globals (Node's `webgpu` package only installs them on request).
const Usage = { MAP_READ: 0x0001, COPY_SRC: 0x0004, COPY_DST: 0x0008, UNIFORM: 0x0040, STORAGE: 0x0080 } as const;
const MAP_MODE_READ = 0x0001;

const MAX_GROUPS_PER_DIM = 65535;
/** Submit after this many dispatches even without a read, to bound command-buffer size. */
const MAX_PENDING_DISPATCHES = 2048;
/** Uniform/bind-group caches are dropped when they grow past this (e.g. per-step sampler seeds). */
const MAX_CACHED_UNIFORMS = 4096;

interface GpuStorage extends TensorStorage {
  buffer: GPUBuffer;
}

interface Pipeline {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

export interface WebGpuBackendOptions {
  powerPreference?: GPUPowerPreference;
}

/**
 * Tensor ops as WGSL compute kernels. All dispatches between two reads go into one compute
 * pass of one command encoder (WebGPU orders dispatches in a pass and makes their storage
 * writes visible to later ones), so a whole PPO update is a single submit.
 */
export class WebGpuBackend implements Backend {
  readonly kind = 'webgpu' as const;
  readonly info: string;
  private readonly owner = Symbol('webgpu-backend');
  private encoder: GPUCommandEncoder | null = null;
  private pass: GPUComputePassEncoder | null = null;
  private pendingDispatches = 0;
  private readonly pipelines = new Map<string, Pipeline>();
  private readonly uniforms = new Map<string, { id: number; buffer: GPUBuffer }>();
  private readonly bindGroups = new Map<string, GPUBindGroup>();
  private readonly dummy: GpuStorage;
  private readonly errors: string[] = [];

  /** Returns null when the GPU object offers no adapter (no driver, no software fallback). */
  static async create(gpu: GPU, options: WebGpuBackendOptions = {}): Promise<WebGpuBackend | null> {
    const adapter = await gpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
    if (!adapter) return null;
    const limits = adapter.limits;
    const device = await adapter.requestDevice({
      requiredLimits: {
        maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
        maxBufferSize: limits.maxBufferSize,
        maxStorageBuffersPerShaderStage: Math.min(limits.maxStorageBuffersPerShaderStage, 8),
      },
    });
    return new WebGpuBackend(gpu, device, describeAdapter(adapter.info));
  }

  private constructor(
    // Held so the Dawn instance in Node outlives every device it created.
    readonly gpu: GPU,
    readonly device: GPUDevice,
    adapterInfo: string,
  ) {
    this.info = adapterInfo;
    device.onuncapturederror = (ev: GPUUncapturedErrorEvent) => {
      this.errors.push(ev.error.message);
    };
    void device.lost.then((info) => {
      if (info.reason !== 'destroyed') this.errors.push(`device lost: ${info.message}`);
    });
    this.dummy = this.allocate(4, false);
  }

  // ---------------------------------------------------------------- storage

  private allocate(elements: number, mapped: boolean): GpuStorage {
    const buffer = this.device.createBuffer({
      // Whole 16-byte units, so every buffer can also be bound as array<vec4f>.
      size: Math.max(16, Math.ceil(elements / 4) * 16),
      usage: Usage.STORAGE | Usage.COPY_SRC | Usage.COPY_DST,
      mappedAtCreation: mapped,
    });
    return { id: newStorageId(), length: elements, owner: this.owner, buffer };
  }

  private storageOf(t: Tensor): GpuStorage {
    const s = t.storage as GpuStorage;
    if (s.owner !== this.owner) throw new Error('tensor belongs to another backend');
    return s;
  }

  tensor(shape: readonly number[], data?: ArrayLike<number>): Tensor {
    const size = shapeSize(shape);
    if (data && data.length !== size) throw new Error(`tensor data: expected ${size} elements, got ${data.length}`);
    const storage = this.allocate(size, true);
    const mapped = new Float32Array(storage.buffer.getMappedRange());
    if (data) mapped.set(data);
    storage.buffer.unmap();
    return { shape: [...shape], size, offset: 0, storage };
  }

  write(t: Tensor, data: ArrayLike<number>, offset = 0): void {
    if (offset + data.length > t.size) throw new Error(`write of ${data.length} at ${offset} overflows ${t.size} elements`);
    if (data.length === 0) return;
    // queue.writeBuffer is ordered against submits, so earlier enqueued work must be submitted first.
    this.flush();
    const values = data instanceof Float32Array ? data : Float32Array.from(data);
    this.device.queue.writeBuffer(this.storageOf(t).buffer, (t.offset + offset) * 4, values.buffer, values.byteOffset, values.byteLength);
  }

  async read(t: Tensor): Promise<Float32Array> {
    const [out] = await this.readMany([t]);
    return out;
  }

  async readMany(ts: readonly Tensor[]): Promise<Float32Array[]> {
    this.endPass();
    const encoder = this.encoder ?? this.device.createCommandEncoder();
    this.encoder = null;
    const total = ts.reduce((n, t) => n + t.size, 0);
    const staging = this.device.createBuffer({ size: Math.max(4, total * 4), usage: Usage.MAP_READ | Usage.COPY_DST });
    let at = 0;
    for (const t of ts) {
      if (t.size > 0) encoder.copyBufferToBuffer(this.storageOf(t).buffer, t.offset * 4, staging, at * 4, t.size * 4);
      at += t.size;
    }
    this.device.queue.submit([encoder.finish()]);
    this.pendingDispatches = 0;
    await staging.mapAsync(MAP_MODE_READ);
    const all = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    staging.destroy();
    this.throwIfErrors();
    at = 0;
    return ts.map((t) => {
      const part = all.slice(at, at + t.size);
      at += t.size;
      return part;
    });
  }

  flush(): void {
    this.endPass();
    if (this.encoder) {
      this.device.queue.submit([this.encoder.finish()]);
      this.encoder = null;
      this.pendingDispatches = 0;
    }
  }

  dispose(t: Tensor): void {
    const s = this.storageOf(t);
    this.flush(); // pending commands may still use the buffer
    s.buffer.destroy();
    for (const key of [...this.bindGroups.keys()]) if (key.includes(`#${s.id}#`)) this.bindGroups.delete(key);
  }

  destroy(): void {
    this.flush();
    this.clearUniformCache();
    this.device.destroy();
  }

  private throwIfErrors(): void {
    if (this.errors.length > 0) {
      const message = this.errors.splice(0).join('\n');
      throw new Error(`WebGPU error: ${message}`);
    }
  }

  // ---------------------------------------------------------------- dispatch plumbing

  private endPass(): void {
    if (this.pass) {
      this.pass.end();
      this.pass = null;
    }
  }

  private pipeline(kernel: KernelSource): Pipeline {
    let p = this.pipelines.get(kernel.key);
    if (!p) {
      const module = this.device.createShaderModule({ code: kernel.code, label: kernel.key });
      const layout = this.device.createBindGroupLayout({
        label: kernel.key,
        entries: [
          ...kernel.bindings.map((access, binding) => ({
            binding,
            visibility: 4 /* GPUShaderStage.COMPUTE */,
            buffer: { type: access === 'read' ? ('read-only-storage' as const) : ('storage' as const) },
          })),
          { binding: kernel.bindings.length, visibility: 4, buffer: { type: 'uniform' as const } },
        ],
      });
      const pipeline = this.device.createComputePipeline({
        label: kernel.key,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: 'main' },
      });
      p = { pipeline, layout };
      this.pipelines.set(kernel.key, p);
    }
    return p;
  }

  private uniform(types: string, values: readonly number[]): { id: number; buffer: GPUBuffer } {
    if (types.length !== values.length) throw new Error(`uniform expects ${types.length} values, got ${values.length}`);
    const key = `${types}:${values.join(',')}`;
    let u = this.uniforms.get(key);
    if (!u) {
      if (this.uniforms.size >= MAX_CACHED_UNIFORMS) this.clearUniformCache();
      const size = Math.ceil((types.length * 4) / 16) * 16;
      const buffer = this.device.createBuffer({ size, usage: Usage.UNIFORM, mappedAtCreation: true });
      const view = new DataView(buffer.getMappedRange());
      values.forEach((v, i) => {
        if (types[i] === 'u') {
          if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new Error(`uniform field ${i}: ${v} is not a u32`);
          view.setUint32(i * 4, v, true);
        } else view.setFloat32(i * 4, v, true);
      });
      buffer.unmap();
      u = { id: newStorageId(), buffer };
      this.uniforms.set(key, u);
    }
    return u;
  }

  private clearUniformCache(): void {
    this.flush(); // destroying is safe after submit: Dawn frees the memory once the GPU is done
    for (const u of this.uniforms.values()) u.buffer.destroy();
    this.uniforms.clear();
    this.bindGroups.clear();
  }

  /**
   * Records one dispatch. `tensors[i]` feeds storage binding i (null binds a dummy buffer);
   * writable bindings may not share storage with any other binding of the same dispatch.
   */
  private dispatch(kernel: KernelSource, tensors: (Tensor | null)[], params: number[], groups: [number, number]): void {
    if (groups[0] === 0 || groups[1] === 0) return;
    if (groups[0] > MAX_GROUPS_PER_DIM || groups[1] > MAX_GROUPS_PER_DIM) throw new Error(`${kernel.key}: grid ${groups} too large`);
    const storages = tensors.map((t) => (t ? this.storageOf(t) : this.dummy));
    kernel.bindings.forEach((access, i) => {
      if (access !== 'write') return;
      storages.forEach((other, j) => {
        if (j !== i && other.id === storages[i].id) {
          throw new Error(`${kernel.key}: output binding ${i} shares storage with binding ${j}; use a separate tensor`);
        }
      });
    });
    const { pipeline, layout } = this.pipeline(kernel);
    const uniform = this.uniform(kernel.params, params);
    const key = `${kernel.key}|${storages.map((s) => `#${s.id}#`).join('')}|${uniform.id}`;
    let bindGroup = this.bindGroups.get(key);
    if (!bindGroup) {
      bindGroup = this.device.createBindGroup({
        layout,
        entries: [
          ...storages.map((s, binding) => ({ binding, resource: { buffer: s.buffer } })),
          { binding: storages.length, resource: { buffer: uniform.buffer } },
        ],
      });
      this.bindGroups.set(key, bindGroup);
    }
    if (!this.pass) {
      this.encoder ??= this.device.createCommandEncoder();
      this.pass = this.encoder.beginComputePass();
    }
    this.pass.setPipeline(pipeline);
    this.pass.setBindGroup(0, bindGroup);
    this.pass.dispatchWorkgroups(groups[0], groups[1]);
    if (++this.pendingDispatches >= MAX_PENDING_DISPATCHES) this.flush();
  }

  /** Grid for a 1-D kernel over n invocations (see linear_index in kernels.ts). */
  private grid1d(n: number): [number, number] {
    const groups = Math.ceil(n / WG);
    if (groups <= MAX_GROUPS_PER_DIM) return [groups, groups === 0 ? 0 : 1];
    return [MAX_GROUPS_PER_DIM, Math.ceil(groups / MAX_GROUPS_PER_DIM)];
  }

  // ---------------------------------------------------------------- ops

  fill(t: Tensor, value: number): void {
    this.dispatch(fillKernel, [t], [t.size, t.offset, value], this.grid1d(t.size));
  }

  copy(src: Tensor, dst: Tensor): void {
    assertSameSize('copy', dst, src.size);
    this.dispatch(copyKernel, [src, dst], [src.size, src.offset, dst.offset], this.grid1d(src.size));
  }

  matmul(a: Tensor, b: Tensor, c: Tensor, opts: MatmulOptions = {}): void {
    const { M, N, K } = matmulDims(a, b, c, opts);
    if (opts.bias) assertSameSize('matmul bias', opts.bias, N);
    const transA = !!opts.transA;
    const transB = !!opts.transB;
    const kernel = matmulKernel({
      transA,
      transB,
      bias: !!opts.bias,
      activation: opts.activation ?? 'none',
      accumulate: !!opts.accumulate,
      vec4: matmulVec4Eligible(M, N, K, transA, transB, [a.offset, b.offset]),
    });
    this.dispatch(
      kernel,
      [a, b, opts.bias ?? null, c],
      [M, N, K, a.offset, b.offset, opts.bias?.offset ?? 0, c.offset],
      [Math.ceil(N / MATMUL_TILE), Math.ceil(M / MATMUL_TILE)],
    );
  }

  activationBackward(dy: Tensor, y: Tensor, activation: Activation, dx: Tensor): void {
    assertSameSize('activationBackward y', y, dy.size);
    assertSameSize('activationBackward dx', dx, dy.size);
    this.dispatch(activationBackwardKernel(activation), [dy, y, dx], [dy.size, dy.offset, y.offset, dx.offset], this.grid1d(dy.size));
  }

  sumRows(x: Tensor, out: Tensor, accumulate = false): void {
    const { rows, cols } = asMatrix(x);
    assertSameSize('sumRows out', out, cols);
    this.dispatch(sumRowsKernel, [x, out], [rows, cols, x.offset, out.offset, accumulate ? 1 : 0], this.grid1d(cols));
  }

  private convParams(g: ConvGeometry, offsets: [number, number, number, number]): number[] {
    const { outHeight, outWidth } = convOutputSize(g);
    return [g.batch, g.inChannels, g.inHeight, g.inWidth, g.outChannels, g.kernel, g.stride, outHeight, outWidth, ...offsets];
  }

  conv2d(x: Tensor, w: Tensor, bias: Tensor | null, out: Tensor, g: ConvGeometry, activation: Activation = 'none'): void {
    const { outHeight, outWidth } = checkConv(g, x, w, out);
    if (bias) assertSameSize('conv2d bias', bias, g.outChannels);
    const threads = g.batch * outHeight * Math.ceil(outWidth / 4) * Math.ceil(g.outChannels / 4);
    this.dispatch(
      conv2dKernel(activation, !!bias, g.outChannels % 4 === 0 && w.offset % 4 === 0),
      [x, w, bias, out],
      this.convParams(g, [x.offset, w.offset, bias?.offset ?? 0, out.offset]),
      this.grid1d(threads),
    );
  }

  conv2dBackwardInput(dy: Tensor, w: Tensor, dx: Tensor, g: ConvGeometry): void {
    checkConv(g, dx, w, dy);
    const threads = g.batch * Math.ceil(g.inChannels / 4) * g.inHeight * g.inWidth;
    const vec4 = g.outChannels % 4 === 0 && w.offset % 4 === 0;
    this.dispatch(conv2dBackwardInputKernel(vec4), [dy, w, dx], this.convParams(g, [dy.offset, w.offset, dx.offset, 0]), this.grid1d(threads));
  }

  conv2dBackwardWeight(dy: Tensor, x: Tensor, dw: Tensor, g: ConvGeometry): void {
    checkConv(g, x, dw, dy);
    const rows = g.inChannels * g.kernel * g.kernel;
    const threads = Math.ceil(rows / 4) * Math.ceil(g.outChannels / 4);
    this.dispatch(conv2dBackwardWeightKernel, [dy, x, dw], this.convParams(g, [dy.offset, x.offset, dw.offset, 0]), this.grid1d(threads));
  }

  conv2dBackwardBias(dy: Tensor, db: Tensor, g: ConvGeometry): void {
    const { outHeight, outWidth } = convOutputSize(g);
    const plane = outHeight * outWidth;
    assertSameSize('conv2dBackwardBias dy', dy, g.batch * g.outChannels * plane);
    assertSameSize('conv2dBackwardBias db', db, g.outChannels);
    this.dispatch(conv2dBackwardBiasKernel, [dy, db], [g.batch, g.outChannels, plane, dy.offset, db.offset], this.grid1d(g.outChannels));
  }

  logSoftmax(logits: Tensor, out: Tensor): void {
    const { rows, cols } = asMatrix(logits);
    assertSameSize('logSoftmax out', out, logits.size);
    this.dispatch(logSoftmaxKernel, [logits, out], [rows, cols, logits.offset, out.offset], this.grid1d(rows));
  }

  entropy(logits: Tensor, out: Tensor): void {
    const { rows, cols } = asMatrix(logits);
    assertSameSize('entropy out', out, rows);
    this.dispatch(entropyKernel, [logits, out], [rows, cols, logits.offset, out.offset], this.grid1d(rows));
  }

  sampleCategorical(logits: Tensor, seed: number, counter: number, actions: Tensor, logProbs: Tensor): void {
    const { rows, cols } = checkSample(logits, actions, logProbs);
    this.dispatch(
      sampleCategoricalKernel,
      [logits, actions, logProbs],
      [rows, cols, logits.offset, actions.offset, logProbs.offset, seed >>> 0, counter >>> 0],
      this.grid1d(rows),
    );
  }

  gatherRows(src: Tensor, indices: Tensor, out: Tensor): void {
    const { srcRows, cols } = checkGather(src, indices, out);
    this.dispatch(
      gatherRowsKernel,
      [src, indices, out],
      [indices.size, cols, srcRows, src.offset, indices.offset, out.offset],
      this.grid1d(out.size),
    );
  }

  ppoPolicyLoss(logits: Tensor, batch: Tensor, dLogits: Tensor, stats: Tensor, p: PolicyLossParams): void {
    const { rows, cols } = checkPolicyLoss(logits, batch, dLogits, stats);
    this.dispatch(
      ppoPolicyLossKernel,
      [logits, batch, dLogits, stats],
      [rows, cols, logits.offset, batch.offset, dLogits.offset, stats.offset, p.epsLow, p.epsHigh, p.entCoef],
      this.grid1d(rows),
    );
  }

  ppoValueLoss(values: Tensor, batch: Tensor, dValues: Tensor, stats: Tensor, p: ValueLossParams): void {
    const rows = checkValueLoss(values, batch, dValues, stats);
    this.dispatch(
      ppoValueLossKernel,
      [values, batch, dValues, stats],
      [rows, values.offset, batch.offset, dValues.offset, stats.offset, p.clipCoef === null ? 0 : 1, p.clipCoef ?? 0, p.vfCoef],
      this.grid1d(rows),
    );
  }

  sumSquares(x: Tensor, out: Tensor, accumulate = false): void {
    this.dispatch(sumSquaresKernel, [x, out], [x.size, x.offset, out.offset, accumulate ? 1 : 0], [1, 1]);
  }

  adamPrepare(state: Tensor): void {
    this.dispatch(adamPrepareKernel, [state], [state.offset], [1, 1]);
  }

  adamUpdate(params: Tensor, grads: Tensor, m: Tensor, v: Tensor, state: Tensor): void {
    checkAdam(params, grads, m, v);
    this.dispatch(
      adamUpdateKernel,
      [grads, state, params, m, v],
      [params.size, grads.offset, state.offset, params.offset, m.offset, v.offset],
      this.grid1d(params.size),
    );
  }
}

function describeAdapter(info: GPUAdapterInfo): string {
  const parts = [info.vendor, info.architecture, info.device, info.description].filter((s) => s && s.length > 0);
  return parts.length > 0 ? parts.join(' / ') : 'unknown WebGPU adapter';
}
