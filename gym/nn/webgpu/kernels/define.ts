/**
 * One declaration per WGSL kernel: its storage bindings, its uniform parameters and its entry
 * point. The WGSL header (`struct P`, the `@group(0) @binding(i)` lines, the uniform `p`) and
 * the uniform's byte layout both come from that declaration, so the shader and the values the
 * backend packs cannot disagree on order or type.
 *
 * Every kernel binds whole buffers and receives element offsets in its parameters, so tensors
 * may be views at any offset. Storage bindings are 0..n-1 in declaration order; the uniform is
 * binding n.
 */

/** 1-D kernels use this workgroup size and a 2-D grid when they need more than 65535 groups. */
export const WG = 64;

export type ParamType = 'u32' | 'f32';
export type Access = 'read' | 'read_write';
/** `vec4f` views the buffer as 16-byte vectors (the backend allocates whole 16-byte units). */
export type ElementType = 'f32' | 'vec4f';
export type BindingSpec = Access | { readonly access: Access; readonly element: ElementType };

export type ParamFields = Readonly<Record<string, ParamType>>;
export type BindingFields = Readonly<Record<string, BindingSpec>>;

/** Values for each declared parameter, by name. */
export type ParamValues<P extends ParamFields> = { readonly [K in keyof P]: number };
/** A tensor (or null: the backend binds a dummy buffer) for each declared binding, by name. */
export type BindingValues<B extends BindingFields, T> = { readonly [K in keyof B]: T | null };

/** Builtin inputs of `main`, and the names the body reads them by. */
const BUILTINS = {
  global_invocation_id: 'gid: vec3u',
  num_workgroups: 'nwg: vec3u',
  local_invocation_index: 'li: u32',
} as const;
export type Builtin = keyof typeof BUILTINS;

/**
 * '1d': WG invocations a group, dispatched over the backend's grid1d; the body reads its index
 * with `linear_index(gid, nwg)`. Otherwise the workgroup size and the builtins the body reads.
 */
export type Grid = '1d' | { readonly workgroupSize: number | readonly [number, number]; readonly builtins: readonly Builtin[] };

export interface KernelDeclaration<P extends ParamFields, B extends BindingFields> {
  /** Label and pipeline cache key: two kernels whose code differs must have different names. */
  name: string;
  params: P;
  bindings: B;
  grid: Grid;
  /** WGSL between the header and `main`: helper functions, constants, workgroup variables. */
  wgsl?: readonly string[];
  /** The body of `main`. */
  body: string;
}

export interface Kernel<P extends ParamFields = ParamFields, B extends BindingFields = BindingFields> {
  readonly name: string;
  readonly code: string;
  /** Storage bindings in binding order. */
  readonly bindings: readonly { readonly name: keyof B & string; readonly access: Access }[];
  /** Uniform fields in struct order (each 4 bytes). */
  readonly params: readonly { readonly name: keyof P & string; readonly type: ParamType }[];
  /** The uniform's bytes: the fields in struct order, little-endian, padded to 16 bytes. */
  pack(values: ParamValues<P>): ArrayBuffer;
}

const linearIndexWgsl = /* wgsl */ `
fn linear_index(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * ${WG}u; }`;

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;
/** Names the generated code itself uses. */
const TAKEN = new Set(['p', 'P', 'main', 'linear_index', 'gid', 'nwg', 'li']);

function checkName(kernel: string, what: string, name: string): void {
  if (!IDENTIFIER.test(name)) throw new Error(`kernel ${kernel}: ${what} name '${name}' is not a WGSL identifier`);
  if (what === 'binding' && TAKEN.has(name)) throw new Error(`kernel ${kernel}: binding name '${name}' is used by the generated code`);
}

export function defineKernel<const P extends ParamFields, const B extends BindingFields>(decl: KernelDeclaration<P, B>): Kernel<P, B> {
  const params = Object.entries(decl.params).map(([name, type]) => ({ name, type }));
  const bindings = Object.entries(decl.bindings).map(([name, spec]) => ({
    name,
    access: typeof spec === 'string' ? spec : spec.access,
    element: typeof spec === 'string' ? 'f32' : spec.element,
  }));
  if (params.length === 0) throw new Error(`kernel ${decl.name}: WGSL structs need at least one field`);
  params.forEach(({ name }) => checkName(decl.name, 'parameter', name));
  bindings.forEach(({ name }) => checkName(decl.name, 'binding', name));

  const header = [
    `struct P { ${params.map(({ name, type }) => `${name}: ${type}`).join(', ')} }`,
    ...bindings.map(({ name, access, element }, i) => `@group(0) @binding(${i}) var<storage, ${access}> ${name}: array<${element}>;`),
    `@group(0) @binding(${bindings.length}) var<uniform> p: P;`,
  ];
  const grid: Exclude<Grid, '1d'> = decl.grid === '1d' ? { workgroupSize: WG, builtins: ['global_invocation_id', 'num_workgroups'] } : decl.grid;
  const size = typeof grid.workgroupSize === 'number' ? `${grid.workgroupSize}` : grid.workgroupSize.join(', ');
  const inputs = grid.builtins.map((b) => `@builtin(${b}) ${BUILTINS[b]}`).join(', ');
  const code = [
    ...header,
    ...(decl.wgsl ?? []),
    ...(decl.grid === '1d' ? [linearIndexWgsl] : []),
    `@compute @workgroup_size(${size}) fn main(${inputs}) {${decl.body}}`,
  ].join('\n');

  const byteLength = Math.ceil((params.length * 4) / 16) * 16;
  const pack = (values: ParamValues<P>): ArrayBuffer => {
    const given = Object.keys(values);
    const missing = params.filter(({ name }) => typeof values[name] !== 'number').map(({ name }) => name);
    if (missing.length > 0 || given.length !== params.length) {
      const unknown = given.filter((k) => !Object.hasOwn(decl.params, k));
      throw new Error(`kernel ${decl.name}: parameters missing [${missing.join(', ')}], unknown [${unknown.join(', ')}]`);
    }
    const bytes = new ArrayBuffer(byteLength);
    const view = new DataView(bytes);
    params.forEach(({ name, type }, i) => {
      const v = values[name];
      if (type === 'f32') view.setFloat32(i * 4, v, true);
      else if (Number.isInteger(v) && v >= 0 && v <= 0xffffffff) view.setUint32(i * 4, v, true);
      else throw new Error(`kernel ${decl.name}: parameter ${name} = ${v} is not a u32`);
    });
    return bytes;
  };

  return {
    name: decl.name,
    code,
    bindings: bindings.map(({ name, access }) => ({ name, access })),
    params,
    pack,
  };
}
