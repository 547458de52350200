import type { Backend } from './backend';
import { CpuBackend } from './cpu-backend';
import { WebGpuBackend } from './webgpu/webgpu-backend';

export type BackendChoice = 'webgpu' | 'cpu' | 'auto';

export interface CreateBackendOptions {
  /** A GPU object to use (e.g. navigator.gpu); default: navigator.gpu, else Dawn in Node. */
  gpu?: GPU;
  /** Where the 'auto' fallback notice goes (default console.warn). */
  notice?: (message: string) => void;
}

export class NoWebGpuAdapterError extends Error {
  constructor(detail: string) {
    super(
      `No WebGPU adapter is available (${detail}). In Node this needs a Vulkan/Metal/D3D driver; ` +
        `on Linux without a GPU set VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json ` +
        `(Debian chromium's SwiftShader). Use backend 'cpu' or 'auto' to run without WebGPU.`,
    );
    this.name = 'NoWebGpuAdapterError';
  }
}

async function defaultGpu(): Promise<GPU | null> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) return nav.gpu;
  if (typeof process !== 'undefined' && process.versions?.node) {
    const { createNodeGpu } = await import('./webgpu/node-gpu');
    return createNodeGpu();
  }
  return null;
}

/**
 * 'cpu': the TypeScript reference backend. 'webgpu': WGSL kernels, or a NoWebGpuAdapterError
 * when no adapter exists. 'auto': WebGPU when an adapter exists, else the CPU backend with a
 * visible notice.
 */
export async function createBackend(choice: BackendChoice, options: CreateBackendOptions = {}): Promise<Backend> {
  if (choice === 'cpu') return new CpuBackend();
  let failure: string;
  try {
    const gpu = options.gpu ?? (await defaultGpu());
    if (gpu) {
      const backend = await WebGpuBackend.create(gpu);
      if (backend) return backend;
      failure = 'requestAdapter() returned null';
    } else failure = 'this runtime has no WebGPU implementation';
  } catch (err) {
    failure = err instanceof Error ? err.message : String(err);
  }
  if (choice === 'webgpu') throw new NoWebGpuAdapterError(failure);
  (options.notice ?? console.warn)(`[arcade-gym] WebGPU unavailable (${failure}); falling back to the CPU backend.`);
  return new CpuBackend();
}
