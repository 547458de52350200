/**
 * Node-only: a `GPU` object from the `webgpu` package (Dawn). Kept out of the backend so a
 * browser bundle can use WebGpuBackend with `navigator.gpu` without pulling Dawn in.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Debian's chromium package ships SwiftShader, a CPU Vulkan driver. */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/**
 * Points the Vulkan loader at SwiftShader when no ICD was chosen explicitly and the file
 * exists. For tests and benchmarks on machines without a GPU; a machine with a real Vulkan
 * driver should not call this. Returns whether SwiftShader is now selected.
 */
export function preferSwiftShaderWhenUnset(icd = SWIFTSHADER_ICD): boolean {
  if (!process.env.VK_ICD_FILENAMES && existsSync(icd)) process.env.VK_ICD_FILENAMES = icd;
  return process.env.VK_ICD_FILENAMES === icd;
}

const SYSTEM_VULKAN_LOADERS = [
  '/usr/lib/x86_64-linux-gnu/libvulkan.so.1',
  '/usr/lib/aarch64-linux-gnu/libvulkan.so.1',
  '/usr/lib64/libvulkan.so.1',
  '/usr/lib/libvulkan.so.1',
  '/usr/local/lib/libvulkan.so.1',
];

/**
 * Dawn dlopen()s "libvulkan.so.1". Debian's chromium bundles that loader next to its
 * SwiftShader ICD but does not install it system-wide (package libvulkan1), so Dawn finds
 * no Vulkan and requestAdapter() returns null. Preloading the bundled loader by path, with
 * RTLD_NODELETE so it stays resident after Node's addon check rejects it, makes Dawn's
 * later dlopen by soname resolve to it. Only done when no system loader is present.
 */
function preloadBundledVulkanLoader(): void {
  if (process.platform !== 'linux') return;
  const icd = process.env.VK_ICD_FILENAMES;
  if (!icd || SYSTEM_VULKAN_LOADERS.some((p) => existsSync(p))) return;
  const loader = path.join(path.dirname(icd.split(':')[0]), 'libvulkan.so.1');
  if (!existsSync(loader)) return;
  const RTLD_NOW = 2;
  const RTLD_GLOBAL = 0x100;
  const RTLD_NODELETE = 0x1000; // glibc value; not exported by os.constants.dlopen
  try {
    process.dlopen({ exports: {} }, loader, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
  } catch {
    // Expected: the library is not a Node addon ("did not self-register"), but it is now loaded.
  }
}

let cached: GPU | null = null;

/** The process-wide Dawn GPU object (created once; Dawn lives as long as it is referenced). */
export async function createNodeGpu(): Promise<GPU> {
  if (cached) return cached;
  preloadBundledVulkanLoader();
  const webgpu = (await import('webgpu')) as { create(options: string[]): GPU; globals: object };
  Object.assign(globalThis, webgpu.globals);
  cached = webgpu.create([]);
  return cached;
}
