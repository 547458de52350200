import { describe, expect, it, vi } from 'vitest';
import { CpuBackend } from './cpu-backend';
import { NoWebGpuAdapterError, createBackend } from './factory';
import { acquireTestWebGpu, describeWebGpu } from './test-support';

/** A GPU object whose requestAdapter() finds nothing, as on a machine without any driver. */
const noAdapterGpu = { requestAdapter: async () => null } as unknown as GPU;

describe('createBackend', () => {
  it("'cpu' gives the reference backend", async () => {
    expect((await createBackend('cpu')).kind).toBe('cpu');
  });

  it("'webgpu' without an adapter throws a clear error", async () => {
    await expect(createBackend('webgpu', { gpu: noAdapterGpu })).rejects.toThrow(NoWebGpuAdapterError);
    await expect(createBackend('webgpu', { gpu: noAdapterGpu })).rejects.toThrow(/requestAdapter\(\) returned null[\s\S]*VK_ICD_FILENAMES/);
  });

  it("'auto' without an adapter falls back to the CPU with a visible notice", async () => {
    const notice = vi.fn();
    const b = await createBackend('auto', { gpu: noAdapterGpu, notice });
    expect(b).toBeInstanceOf(CpuBackend);
    expect(notice).toHaveBeenCalledWith(expect.stringMatching(/falling back to the CPU backend/));
  });
});

const gpu = await acquireTestWebGpu();
describeWebGpu('createBackend with an adapter', gpu, (webgpu) => {
  it("'webgpu' and 'auto' use the adapter", async () => {
    const b = await createBackend('webgpu', { gpu: webgpu.gpu });
    expect(b.kind).toBe('webgpu');
    expect((await createBackend('auto', { gpu: webgpu.gpu })).kind).toBe('webgpu');
  });
});
