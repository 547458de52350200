/**
 * defineKernel: the WGSL header and the uniform bytes both follow the one declaration. No
 * device needed; the backend suites compile and run every kernel against the CPU reference.
 */
import { describe, expect, it } from 'vitest';
import { defineKernel, type Kernel } from './define';
import * as kernels from './index';

const example = defineKernel({
  name: 'example',
  params: { rows: 'u32', lr: 'f32', cols: 'u32' },
  bindings: { a: 'read', b: { access: 'read', element: 'vec4f' }, out: 'read_write' },
  grid: '1d',
  body: `
  let i = linear_index(gid, nwg);
  if (i >= p.rows) { return; }
  out[i] = a[i] * p.lr;
`,
});

/** Field and binding lists as written in a kernel's WGSL. */
function parseHeader(code: string) {
  const struct = /^struct P \{ (.*) \}$/m.exec(code)?.[1].split(', ') ?? [];
  const bindings = [...code.matchAll(/^@group\(0\) @binding\((\d+)\) var<([^>]*)> (\w+): ([^;]*);$/gm)].map((m) => [Number(m[1]), m[2], m[3], m[4]]);
  return { struct, bindings };
}

describe('defineKernel', () => {
  it('writes struct P and the bindings in declaration order, the uniform last', () => {
    expect(parseHeader(example.code)).toEqual({
      struct: ['rows: u32', 'lr: f32', 'cols: u32'],
      bindings: [
        [0, 'storage, read', 'a', 'array<f32>'],
        [1, 'storage, read', 'b', 'array<vec4f>'],
        [2, 'storage, read_write', 'out', 'array<f32>'],
        [3, 'uniform', 'p', 'P'],
      ],
    });
    expect(example.bindings).toEqual([
      { name: 'a', access: 'read' },
      { name: 'b', access: 'read' },
      { name: 'out', access: 'read_write' },
    ]);
    expect(example.code).toContain('fn linear_index(gid: vec3u, nwg: vec3u) -> u32');
    expect(example.code).toContain('@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {');
  });

  it('packs the parameters in struct order whatever order they are given in, padded to 16 bytes', () => {
    const bytes = example.pack({ cols: 7, lr: 0.5, rows: 0xffffffff });
    expect(bytes.byteLength).toBe(16);
    const view = new DataView(bytes);
    expect(view.getUint32(0, true)).toBe(0xffffffff);
    expect(view.getFloat32(4, true)).toBe(0.5);
    expect(view.getUint32(8, true)).toBe(7);
    expect(view.getUint32(12, true)).toBe(0);
  });

  it('rejects values that are not u32, and missing or unknown parameters, naming them', () => {
    expect(() => example.pack({ rows: -1, lr: 0, cols: 1 })).toThrow('kernel example: parameter rows = -1 is not a u32');
    expect(() => example.pack({ rows: 1.5, lr: 0, cols: 1 })).toThrow(/rows = 1.5 is not a u32/);
    expect(() => example.pack({ rows: 2 ** 32, lr: 0, cols: 1 })).toThrow(/is not a u32/);
    // @ts-expect-error cols is missing
    expect(() => example.pack({ rows: 1, lr: 0 })).toThrow('kernel example: parameters missing [cols], unknown []');
    // @ts-expect-error colz is not a parameter
    expect(() => example.pack({ rows: 1, lr: 0, colz: 1 })).toThrow('parameters missing [cols], unknown [colz]');
  });

  it('rejects names the generated code cannot use', () => {
    const decl = { name: 'bad', grid: '1d', body: '' } as const;
    expect(() => defineKernel({ ...decl, params: {}, bindings: { out: 'read_write' } })).toThrow(/at least one field/);
    expect(() => defineKernel({ ...decl, params: { n: 'u32' }, bindings: { p: 'read_write' } })).toThrow(/binding name 'p' is used by the generated code/);
    expect(() => defineKernel({ ...decl, params: { 'x-1': 'u32' }, bindings: { out: 'read' } })).toThrow(/'x-1' is not a WGSL identifier/);
  });

  it('an explicit grid names its workgroup size and builtins', () => {
    const k = defineKernel({
      name: 'tile',
      params: { n: 'u32' },
      bindings: { out: 'read_write' },
      grid: { workgroupSize: [8, 8], builtins: ['global_invocation_id'] },
      body: '',
    });
    expect(k.code).toContain('@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) gid: vec3u) {}');
    expect(k.code).not.toContain('linear_index');
  });
});

describe('the backend kernels', () => {
  const all: Kernel[] = [
    kernels.fillKernel,
    kernels.copyKernel,
    kernels.gatherRowsKernel,
    kernels.activationBackwardKernel('tanh'),
    kernels.matmulKernel({ transA: true, transB: false, bias: true, activation: 'relu', accumulate: false, vec4: true }),
    kernels.conv2dKernel('relu', true, true),
    kernels.conv2dBackwardInputKernel(false),
    kernels.conv2dBackwardWeightKernel,
    kernels.conv2dBackwardBiasKernel,
    kernels.logSoftmaxKernel,
    kernels.entropyKernel,
    kernels.sampleCategoricalKernel,
    kernels.ppoPolicyLossKernel,
    kernels.ppoValueLossKernel,
    kernels.sumRowsKernel,
    kernels.sumSquaresKernel,
    kernels.adamPrepareKernel,
    kernels.adamUpdateKernel,
  ];

  it.each(all.map((k) => [k.name, k] as const))('%s: the shader header matches the packed layout', (_, k) => {
    const { struct, bindings } = parseHeader(k.code);
    expect(struct).toEqual(k.params.map(({ name, type }) => `${name}: ${type}`));
    expect(bindings.map(([i, access, name]) => [i, access, name])).toEqual([
      ...k.bindings.map(({ name, access }, i) => [i, `storage, ${access}`, name]),
      [k.bindings.length, 'uniform', 'p'],
    ]);
    expect(k.code.match(/@compute/g)).toHaveLength(1);
  });

  it('have distinct names (the pipeline cache key) for distinct code', () => {
    const variants: Kernel[] = [];
    for (const activation of ['none', 'relu', 'tanh'] as const) {
      for (const flag of [false, true]) {
        variants.push(kernels.matmulKernel({ transA: flag, transB: !flag, bias: flag, activation, accumulate: !flag, vec4: flag }));
        variants.push(kernels.conv2dKernel(activation, flag, !flag), kernels.activationBackwardKernel(activation));
      }
    }
    const byName = new Map<string, string>();
    for (const k of [...all, ...variants]) {
      expect(byName.get(k.name) ?? k.code).toBe(k.code);
      byName.set(k.name, k.code);
    }
  });
});
