import {
  MASKED_LOGIT,
  assertSameSize,
  convOutputSize,
  type Activation,
  type Backend,
  type ConvGeometry,
  type MapGeometry,
  type MatmulOptions,
  type PolicyLossParams,
  type ValueLossParams,
} from '../backend';
import { checkAdam, checkConv, checkGather, checkPolicyLoss, checkSample, checkSpatialSoftmax, checkValueLoss, matmulDims } from '../shape-checks';
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
  spatialSoftmaxBackwardKernel,
  spatialSoftmaxKernel,
  matmulKernel,
  matmulVec4Eligible,
  ppoPolicyLossKernel,
  ppoValueLossKernel,
  sampleCategoricalKernel,
  maskLogitsKernel,
  sumRowsKernel,
  sumSquaresKernel,
  type BindingFields,
  type BindingValues,
  type Kernel,
  type ParamFields,
  type ParamValues,
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

  private pipeline(kernel: Kernel): Pipeline {
    let p = this.pipelines.get(kernel.name);
    if (!p) {
      const module = this.device.createShaderModule({ code: kernel.code, label: kernel.name });
      const layout = this.device.createBindGroupLayout({
        label: kernel.name,
        entries: [
          ...kernel.bindings.map(({ access }, binding) => ({
            binding,
            visibility: 4 /* GPUShaderStage.COMPUTE */,
            buffer: { type: access === 'read' ? ('read-only-storage' as const) : ('storage' as const) },
          })),
          { binding: kernel.bindings.length, visibility: 4, buffer: { type: 'uniform' as const } },
        ],
      });
      const pipeline = this.device.createComputePipeline({
        label: kernel.name,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        compute: { module, entryPoint: 'main' },
      });
      p = { pipeline, layout };
      this.pipelines.set(kernel.name, p);
    }
    return p;
  }

  /** A uniform buffer holding `bytes`; kernels whose packed parameters are byte-identical share one. */
  private uniform(bytes: ArrayBuffer): { id: number; buffer: GPUBuffer } {
    const key = new Uint32Array(bytes).join(',');
    let u = this.uniforms.get(key);
    if (!u) {
      if (this.uniforms.size >= MAX_CACHED_UNIFORMS) this.clearUniformCache();
      const buffer = this.device.createBuffer({ size: bytes.byteLength, usage: Usage.UNIFORM, mappedAtCreation: true });
      new Uint8Array(buffer.getMappedRange()).set(new Uint8Array(bytes));
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
   * Records one dispatch: a tensor for each of the kernel's bindings (null binds a dummy buffer)
   * and a value for each of its parameters, by name. Writable bindings may not share storage
   * with any other binding of the same dispatch.
   */
  private dispatch<P extends ParamFields, B extends BindingFields>(
    kernel: Kernel<P, B>,
    tensors: BindingValues<B, Tensor>,
    params: ParamValues<P>,
    groups: [number, number],
  ): void {
    if (groups[0] === 0 || groups[1] === 0) return;
    if (groups[0] > MAX_GROUPS_PER_DIM || groups[1] > MAX_GROUPS_PER_DIM) throw new Error(`${kernel.name}: grid ${groups} too large`);
    const storages = kernel.bindings.map(({ name }) => {
      const t = tensors[name];
      if (t === undefined) throw new Error(`${kernel.name}: no tensor for binding ${name}`);
      return t ? this.storageOf(t) : this.dummy;
    });
    kernel.bindings.forEach(({ name, access }, i) => {
      if (access !== 'read_write') return;
      kernel.bindings.forEach((other, j) => {
        if (j !== i && storages[j].id === storages[i].id) {
          throw new Error(`${kernel.name}: output ${name} shares storage with ${other.name}; use a separate tensor`);
        }
      });
    });
    const { pipeline, layout } = this.pipeline(kernel);
    const uniform = this.uniform(kernel.pack(params));
    const key = `${kernel.name}|${storages.map((s) => `#${s.id}#`).join('')}|${uniform.id}`;
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

  /** Grid for a 1-D kernel over n invocations (see linear_index in kernels/define.ts). */
  private grid1d(n: number): [number, number] {
    const groups = Math.ceil(n / WG);
    if (groups <= MAX_GROUPS_PER_DIM) return [groups, groups === 0 ? 0 : 1];
    return [MAX_GROUPS_PER_DIM, Math.ceil(groups / MAX_GROUPS_PER_DIM)];
  }

  // ---------------------------------------------------------------- ops

  fill(t: Tensor, value: number): void {
    this.dispatch(fillKernel, { out: t }, { n: t.size, off: t.offset, value }, this.grid1d(t.size));
  }

  copy(src: Tensor, dst: Tensor): void {
    assertSameSize('copy', dst, src.size);
    this.dispatch(copyKernel, { src, dst }, { n: src.size, srcOff: src.offset, dstOff: dst.offset }, this.grid1d(src.size));
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
      { A: a, B: b, bias: opts.bias ?? null, C: c },
      { M, N, K, aOff: a.offset, bOff: b.offset, biasOff: opts.bias?.offset ?? 0, cOff: c.offset },
      [Math.ceil(N / MATMUL_TILE), Math.ceil(M / MATMUL_TILE)],
    );
  }

  activationBackward(dy: Tensor, y: Tensor, activation: Activation, dx: Tensor): void {
    assertSameSize('activationBackward y', y, dy.size);
    assertSameSize('activationBackward dx', dx, dy.size);
    this.dispatch(
      activationBackwardKernel(activation),
      { dy, y, dx },
      { n: dy.size, dyOff: dy.offset, yOff: y.offset, dxOff: dx.offset },
      this.grid1d(dy.size),
    );
  }

  sumRows(x: Tensor, out: Tensor, accumulate = false): void {
    const { rows, cols } = asMatrix(x);
    assertSameSize('sumRows out', out, cols);
    this.dispatch(sumRowsKernel, { x, out }, { rows, cols, xOff: x.offset, outOff: out.offset, accumulate: accumulate ? 1 : 0 }, this.grid1d(cols));
  }

  private convGeometry(g: ConvGeometry) {
    const { outHeight, outWidth } = convOutputSize(g);
    return { N: g.batch, C: g.inChannels, H: g.inHeight, W: g.inWidth, O: g.outChannels, K: g.kernel, S: g.stride, OH: outHeight, OW: outWidth };
  }

  conv2d(x: Tensor, w: Tensor, bias: Tensor | null, out: Tensor, g: ConvGeometry, activation: Activation = 'none'): void {
    const { outHeight, outWidth } = checkConv(g, x, w, out);
    if (bias) assertSameSize('conv2d bias', bias, g.outChannels);
    const threads = g.batch * outHeight * Math.ceil(outWidth / 4) * Math.ceil(g.outChannels / 4);
    this.dispatch(
      conv2dKernel(activation, !!bias, g.outChannels % 4 === 0 && w.offset % 4 === 0),
      { X: x, Wt: w, bias, Y: out },
      { ...this.convGeometry(g), xOff: x.offset, wOff: w.offset, biasOff: bias?.offset ?? 0, yOff: out.offset },
      this.grid1d(threads),
    );
  }

  conv2dBackwardInput(dy: Tensor, w: Tensor, dx: Tensor, g: ConvGeometry): void {
    checkConv(g, dx, w, dy);
    const threads = g.batch * Math.ceil(g.inChannels / 4) * g.inHeight * g.inWidth;
    const vec4 = g.outChannels % 4 === 0 && w.offset % 4 === 0;
    this.dispatch(
      conv2dBackwardInputKernel(vec4),
      { DY: dy, Wt: w, DX: dx },
      { ...this.convGeometry(g), dyOff: dy.offset, wOff: w.offset, dxOff: dx.offset },
      this.grid1d(threads),
    );
  }

  conv2dBackwardWeight(dy: Tensor, x: Tensor, dw: Tensor, g: ConvGeometry): void {
    checkConv(g, x, dw, dy);
    const rows = g.inChannels * g.kernel * g.kernel;
    const threads = Math.ceil(rows / 4) * Math.ceil(g.outChannels / 4);
    this.dispatch(
      conv2dBackwardWeightKernel,
      { DY: dy, X: x, DW: dw },
      { ...this.convGeometry(g), dyOff: dy.offset, xOff: x.offset, dwOff: dw.offset },
      this.grid1d(threads),
    );
  }

  conv2dBackwardBias(dy: Tensor, db: Tensor, g: ConvGeometry): void {
    const { outHeight, outWidth } = convOutputSize(g);
    const plane = outHeight * outWidth;
    assertSameSize('conv2dBackwardBias dy', dy, g.batch * g.outChannels * plane);
    assertSameSize('conv2dBackwardBias db', db, g.outChannels);
    this.dispatch(
      conv2dBackwardBiasKernel,
      { DY: dy, DB: db },
      { N: g.batch, O: g.outChannels, plane, dyOff: dy.offset, dbOff: db.offset },
      this.grid1d(g.outChannels),
    );
  }

  spatialSoftmax(x: Tensor, out: Tensor, g: MapGeometry): void {
    const { maps } = checkSpatialSoftmax(g, x, out);
    this.dispatch(spatialSoftmaxKernel, { X: x, out }, { maps, H: g.height, W: g.width, xOff: x.offset, outOff: out.offset }, this.grid1d(maps));
  }

  spatialSoftmaxBackward(x: Tensor, dy: Tensor, dx: Tensor, g: MapGeometry): void {
    const { maps } = checkSpatialSoftmax(g, x, dy, dx);
    this.dispatch(
      spatialSoftmaxBackwardKernel,
      { X: x, DY: dy, DX: dx },
      { maps, H: g.height, W: g.width, xOff: x.offset, dyOff: dy.offset, dxOff: dx.offset },
      this.grid1d(maps),
    );
  }

  logSoftmax(logits: Tensor, out: Tensor): void {
    const { rows, cols } = asMatrix(logits);
    assertSameSize('logSoftmax out', out, logits.size);
    this.dispatch(logSoftmaxKernel, { Z: logits, out }, { rows, cols, zOff: logits.offset, outOff: out.offset }, this.grid1d(rows));
  }

  maskLogits(logits: Tensor, mask: Tensor): void {
    assertSameSize('maskLogits mask', mask, logits.size);
    this.dispatch(
      maskLogitsKernel,
      { Z: logits, mask },
      { n: logits.size, zOff: logits.offset, mOff: mask.offset, masked: MASKED_LOGIT },
      this.grid1d(logits.size),
    );
  }

  entropy(logits: Tensor, out: Tensor): void {
    const { rows, cols } = asMatrix(logits);
    assertSameSize('entropy out', out, rows);
    this.dispatch(entropyKernel, { Z: logits, out }, { rows, cols, zOff: logits.offset, outOff: out.offset }, this.grid1d(rows));
  }

  sampleCategorical(logits: Tensor, seed: number, counter: number, actions: Tensor, logProbs: Tensor): void {
    const { rows, cols } = checkSample(logits, actions, logProbs);
    this.dispatch(
      sampleCategoricalKernel,
      { Z: logits, actions, logProbs },
      { rows, cols, zOff: logits.offset, aOff: actions.offset, lOff: logProbs.offset, seed: seed >>> 0, counter: counter >>> 0 },
      this.grid1d(rows),
    );
  }

  gatherRows(src: Tensor, indices: Tensor, out: Tensor): void {
    const { srcRows, cols } = checkGather(src, indices, out);
    this.dispatch(
      gatherRowsKernel,
      { src, idx: indices, out },
      { rows: indices.size, cols, srcRows, srcOff: src.offset, idxOff: indices.offset, outOff: out.offset },
      this.grid1d(out.size),
    );
  }

  ppoPolicyLoss(logits: Tensor, batch: Tensor, dLogits: Tensor, stats: Tensor, p: PolicyLossParams): void {
    const { rows, cols } = checkPolicyLoss(logits, batch, dLogits, stats);
    this.dispatch(
      ppoPolicyLossKernel,
      { Z: logits, batch, dZ: dLogits, stats },
      {
        rows,
        cols,
        zOff: logits.offset,
        bOff: batch.offset,
        dOff: dLogits.offset,
        sOff: stats.offset,
        epsLow: p.epsLow,
        epsHigh: p.epsHigh,
        entCoef: p.entCoef,
      },
      this.grid1d(rows),
    );
  }

  ppoValueLoss(values: Tensor, batch: Tensor, dValues: Tensor, stats: Tensor, p: ValueLossParams): void {
    const rows = checkValueLoss(values, batch, dValues, stats);
    this.dispatch(
      ppoValueLossKernel,
      { V: values, batch, dV: dValues, stats },
      {
        rows,
        vOff: values.offset,
        bOff: batch.offset,
        dOff: dValues.offset,
        sOff: stats.offset,
        useClip: p.clipCoef === null ? 0 : 1,
        clipCoef: p.clipCoef ?? 0,
        vfCoef: p.vfCoef,
      },
      this.grid1d(rows),
    );
  }

  sumSquares(x: Tensor, out: Tensor, accumulate = false): void {
    this.dispatch(sumSquaresKernel, { x, out }, { n: x.size, xOff: x.offset, outOff: out.offset, accumulate: accumulate ? 1 : 0 }, [1, 1]);
  }

  adamPrepare(state: Tensor): void {
    this.dispatch(adamPrepareKernel, { S: state }, { off: state.offset }, [1, 1]);
  }

  adamUpdate(params: Tensor, grads: Tensor, m: Tensor, v: Tensor, state: Tensor): void {
    checkAdam(params, grads, m, v);
    this.dispatch(
      adamUpdateKernel,
      { G: grads, S: state, Pm: params, M: m, V: v },
      { n: params.size, gOff: grads.offset, sOff: state.offset, pOff: params.offset, mOff: m.offset, vOff: v.offset },
      this.grid1d(params.size),
    );
  }
}

function describeAdapter(info: GPUAdapterInfo): string {
  const parts = [info.vendor, info.architecture, info.device, info.description].filter((s) => s && s.length > 0);
  return parts.length > 0 ? parts.join(' / ') : 'unknown WebGPU adapter';
}
