/**
 * Tensor backends (WebGPU kernels and the CPU reference) and the actor-critic networks built
 * on them. Node-only GPU acquisition lives in ./webgpu/node-gpu (createBackend loads it lazily).
 */
export * from './backend';
export { makeView, reshape, shapeSize, type Tensor, type TensorStorage } from './tensor';
export { CpuBackend } from './cpu-backend';
export { WebGpuBackend, type WebGpuBackendOptions } from './webgpu/webgpu-backend';
export { createBackend, NoWebGpuAdapterError, type BackendChoice, type CreateBackendOptions } from './factory';
export { ActorCritic, networkInputSize, type ForwardResult, type NetworkSpec } from './actor-critic';
export { Adam, type AdamOptions, type AdamSnapshot } from './adam';
export { ParamStore, type ParamEntry } from './params';
export { Rng, type RngState } from '../random/rng';
export { hashUniform, pcgHash } from './hash-rng';
export { orthogonal } from './init';
