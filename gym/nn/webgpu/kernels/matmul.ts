import type { Activation } from '../../backend';
import { defineKernel } from './define';
import { activationWgsl } from './elementwise';

export interface MatmulVariant {
  transA: boolean;
  transB: boolean;
  bias: boolean;
  activation: Activation;
  accumulate: boolean;
  /**
   * K, the offsets and the contiguous dimensions are multiples of 4: the inner loop steps k by
   * 4 and loads operands as vec4 (a quarter of the load instructions, which dominate on
   * SwiftShader).
   */
  vec4: boolean;
}

/** Each invocation computes a 4×4 block of C; a workgroup (8×8) covers 32×32. */
export const MATMUL_TILE = 32;

/** Whether the vec4 matmul variant applies (see MatmulVariant.vec4). */
export function matmulVec4Eligible(M: number, N: number, K: number, transA: boolean, transB: boolean, offsets: number[]): boolean {
  return K % 4 === 0 && (transA ? M % 4 === 0 : true) && (transB ? true : N % 4 === 0) && offsets.every((o) => o % 4 === 0);
}

function matmulInnerLoop(v: MatmulVariant): string {
  if (!v.vec4) {
    const aStart = v.transA ? 'rows' : 'rows * p.K';
    const aStep = v.transA ? 'p.M' : '1u';
    const bStart = v.transB ? 'cols * p.K' : 'cols';
    const bStep = v.transB ? '1u' : 'p.N';
    return `
  var ai = vec4u(p.aOff) + ${aStart};
  var bi = vec4u(p.bOff) + ${bStart};
  for (var k = 0u; k < p.K; k++) {
    let b = vec4f(B[bi.x], B[bi.y], B[bi.z], B[bi.w]);
    acc0 += A[ai.x] * b;
    acc1 += A[ai.y] * b;
    acc2 += A[ai.z] * b;
    acc3 += A[ai.w] * b;
    ai += vec4u(${aStep});
    bi += vec4u(${bStep});
  }`;
  }
  // Four k steps per iteration. A: without transA each row's 4 k values are one vec4
  // (ar0..ar3); with transA each k's 4 rows are one vec4 (ak0..ak3). B likewise.
  const aLoads = v.transA
    ? [0, 1, 2, 3].map((kk) => `let ak${kk} = A[(p.aOff + (k + ${kk}u) * p.M + row0) / 4u];`).join('\n    ')
    : [0, 1, 2, 3].map((r) => `let ar${r} = A[(p.aOff + rows[${r}] * p.K + k) / 4u];`).join('\n    ');
  const a = (r: number, kk: number) => (v.transA ? `ak${kk}[${r}]` : `ar${r}[${kk}]`);
  const bLoads = v.transB
    ? [0, 1, 2, 3].map((j) => `let bc${j} = B[(p.bOff + cols[${j}] * p.K + k) / 4u];`).join('\n    ')
    : [0, 1, 2, 3].map((kk) => `let bk${kk} = B[(p.bOff + (k + ${kk}u) * p.N + col0) / 4u];`).join('\n    ');
  const b = (kk: number) => (v.transB ? `vec4f(bc0[${kk}], bc1[${kk}], bc2[${kk}], bc3[${kk}])` : `bk${kk}`);
  const fmas = [0, 1, 2, 3]
    .map((kk) => [`let b${kk} = ${b(kk)};`, ...[0, 1, 2, 3].map((r) => `acc${r} += ${a(r, kk)} * b${kk};`)].join('\n    '))
    .join('\n    ');
  return `
  for (var k = 0u; k < p.K; k += 4u) {
    ${aLoads}
    ${bLoads}
    ${fmas}
  }`;
}

/** C = act(op(A)·op(B) + bias) or C += op(A)·op(B); dispatched as ⌈N/32⌉ × ⌈M/32⌉ workgroups. */
export function matmulKernel(v: MatmulVariant) {
  const store = v.accumulate ? 'C[at] = C[at] + value;' : `C[at] = act(value${v.bias ? ' + bias[p.biasOff + col]' : ''});`;
  const operand = { access: 'read', element: v.vec4 ? 'vec4f' : 'f32' } as const;
  return defineKernel({
    name: `matmul:${v.transA ? 'T' : 'N'}${v.transB ? 'T' : 'N'}:${v.bias ? 'b' : '-'}:${v.activation}:${v.accumulate ? 'acc' : 'set'}:${v.vec4 ? 'v4' : 's'}`,
    params: { M: 'u32', N: 'u32', K: 'u32', aOff: 'u32', bOff: 'u32', biasOff: 'u32', cOff: 'u32' },
    bindings: { A: operand, B: operand, bias: 'read', C: 'read_write' },
    grid: { workgroupSize: [8, 8], builtins: ['global_invocation_id'] },
    wgsl: [
      activationWgsl(v.activation),
      /* wgsl */ `
fn put(row: u32, col: u32, value: f32) {
  if (row >= p.M || col >= p.N) { return; }
  let at = p.cOff + row * p.N + col;
  ${store}
}`,
    ],
    body: /* wgsl */ `
  let row0 = gid.y * 4u;
  let col0 = gid.x * 4u;
  if (row0 >= p.M || col0 >= p.N) { return; }
  // Clamp out-of-range rows/columns so the inner loop needs no bounds checks; their results are dropped.
  let rows = min(vec4u(row0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.M - 1u));
  let cols = min(vec4u(col0) + vec4u(0u, 1u, 2u, 3u), vec4u(p.N - 1u));
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  ${matmulInnerLoop(v)}
  for (var j = 0u; j < 4u; j++) {
    put(row0, col0 + j, acc0[j]);
    put(row0 + 1u, col0 + j, acc1[j]);
    put(row0 + 2u, col0 + j, acc2[j]);
    put(row0 + 3u, col0 + j, acc3[j]);
  }
`,
  });
}
