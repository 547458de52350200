/**
 * The WGSL kernels of the WebGPU backend, grouped by kind. Each is declared once with
 * defineKernel (./define.ts), which generates its bindings, its parameter struct and the
 * uniform packing from that one declaration.
 *
 * Kernels are written for a software rasteriser first (SwiftShader): no workgroup memory except
 * in the one reduction (sum_squares), and register blocking (each invocation computes a 4×4 or
 * 4×k block) instead of shared-memory tiles.
 */
export {
  WG,
  defineKernel,
  type BindingFields,
  type BindingValues,
  type Kernel,
  type KernelDeclaration,
  type ParamFields,
  type ParamValues,
} from './define';
export { activationBackwardKernel, copyKernel, fillKernel, gatherRowsKernel, maskLogitsKernel } from './elementwise';
export { MATMUL_TILE, matmulKernel, matmulVec4Eligible, type MatmulVariant } from './matmul';
export { conv2dBackwardBiasKernel, conv2dBackwardInputKernel, conv2dBackwardWeightKernel, conv2dKernel } from './conv';
export { spatialSoftmaxBackwardKernel, spatialSoftmaxKernel } from './keypoints';
export { entropyKernel, logSoftmaxKernel, sampleCategoricalKernel } from './softmax';
export { ppoPolicyLossKernel, ppoValueLossKernel } from './losses';
export { SUM_SQUARES_WG, sumRowsKernel, sumSquaresKernel } from './reductions';
export { adamPrepareKernel, adamUpdateKernel } from './optimiser';
