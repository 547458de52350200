/**
 * Gymnasium-style spaces: plain JSON-able descriptions (they travel over HTTP and into
 * `arcade-gym games`), with `contains` for checks and `batchSpace` for vector envs.
 */
export type Space =
  | { type: 'Discrete'; n: number; names: string[] }
  | { type: 'MultiDiscrete'; nvec: number[] }
  | { type: 'Box'; shape: number[]; dtype: 'float32' | 'uint8'; low: number; high: number; names?: string[] }
  | { type: 'Json'; description: string }
  | { type: 'Image'; format: 'png' | 'jpeg' }
  | { type: 'Dict'; spaces: Record<string, Space> }
  | { type: 'Tuple'; spaces: Space[] }
  | { type: 'GuiAction'; description: string };

export function discreteSpace(n: number, names: readonly string[] = Array.from({ length: n }, (_, i) => String(i))): Space {
  return { type: 'Discrete', n, names: [...names] };
}

export function boxSpace(shape: readonly number[], dtype: 'float32' | 'uint8' = 'float32', low = -Infinity, high = Infinity): Extract<Space, { type: 'Box' }> {
  return { type: 'Box', shape: [...shape], dtype, low, high };
}

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** The values of a Box observation: a typed array or array, or an image-like `{ data, width, height, channels }`. */
function boxValues(x: unknown, shape: readonly number[]): ArrayLike<number> | null {
  if (ArrayBuffer.isView(x) && !(x instanceof DataView)) return x as unknown as ArrayLike<number>;
  if (Array.isArray(x)) return x;
  if (x && typeof x === 'object' && 'data' in x && ArrayBuffer.isView((x as { data: unknown }).data)) {
    const img = x as { data: ArrayLike<number>; width?: number; height?: number; channels?: number };
    if (img.width !== undefined && shape.length === 3 && (img.height !== shape[0] || img.width !== shape[1] || img.channels !== shape[2])) return null;
    return img.data;
  }
  return null;
}

/** Why `x` is not in `space` (a path and a reason), or null when it is. */
export function whyNotContained(space: Space, x: unknown, at = 'value'): string | null {
  switch (space.type) {
    case 'Discrete':
      return Number.isInteger(x) && (x as number) >= 0 && (x as number) < space.n ? null : `${at}: expected an integer in [0, ${space.n}), got ${String(x)}`;
    case 'MultiDiscrete': {
      const v = boxValues(x, [space.nvec.length]);
      if (!v || v.length !== space.nvec.length) return `${at}: expected ${space.nvec.length} integers`;
      for (let i = 0; i < v.length; i++)
        if (!Number.isInteger(v[i]) || v[i] < 0 || v[i] >= space.nvec[i]) return `${at}[${i}]: ${v[i]} is not in [0, ${space.nvec[i]})`;
      return null;
    }
    case 'Box': {
      const v = boxValues(x, space.shape);
      if (!v) return `${at}: expected an array of shape [${space.shape}]`;
      if (v.length !== size(space.shape)) return `${at}: expected ${size(space.shape)} values (shape [${space.shape}]), got ${v.length}`;
      if (space.dtype === 'uint8' && !(x instanceof Uint8Array || x instanceof Uint8ClampedArray || (x as { data?: unknown }).data instanceof Uint8Array)) {
        return `${at}: expected uint8 data`;
      }
      for (let i = 0; i < v.length; i++) {
        const n = v[i];
        if (typeof n !== 'number' || Number.isNaN(n) || n < space.low || n > space.high) return `${at}[${i}]: ${n} is outside [${space.low}, ${space.high}]`;
      }
      return null;
    }
    case 'Json':
      return x !== null && typeof x === 'object' ? null : `${at}: expected a JSON object`;
    case 'Image':
      return x instanceof Uint8Array && x.length > 0 ? null : `${at}: expected encoded ${space.format} bytes`;
    case 'Dict': {
      if (!x || typeof x !== 'object') return `${at}: expected an object with keys ${Object.keys(space.spaces).join(', ')}`;
      for (const [k, s] of Object.entries(space.spaces)) {
        const why = whyNotContained(s, (x as Record<string, unknown>)[k], `${at}.${k}`);
        if (why) return why;
      }
      return null;
    }
    case 'Tuple': {
      if (!Array.isArray(x) || x.length !== space.spaces.length) return `${at}: expected ${space.spaces.length} items`;
      for (let i = 0; i < x.length; i++) {
        const why = whyNotContained(space.spaces[i], x[i], `${at}[${i}]`);
        if (why) return why;
      }
      return null;
    }
    case 'GuiAction':
      return x !== null && typeof x === 'object' && typeof (x as { type?: unknown }).type === 'string' ? null : `${at}: expected a GUI action object`;
  }
}

export function contains(space: Space, x: unknown): boolean {
  return whyNotContained(space, x) === null;
}

/** The space of `n` stacked values of `space` (Gymnasium's batch_space). */
export function batchSpace(space: Space, n: number): Space {
  switch (space.type) {
    case 'Discrete':
      return { type: 'MultiDiscrete', nvec: new Array(n).fill(space.n) };
    case 'MultiDiscrete':
      return { type: 'Box', shape: [n, space.nvec.length], dtype: 'float32', low: 0, high: Math.max(...space.nvec) - 1 };
    case 'Box':
      return { ...space, shape: [n, ...space.shape] };
    case 'Dict':
      return { type: 'Dict', spaces: Object.fromEntries(Object.entries(space.spaces).map(([k, s]) => [k, batchSpace(s, n)])) };
    default:
      return { type: 'Tuple', spaces: new Array(n).fill(space) };
  }
}
