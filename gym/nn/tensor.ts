/**
 * A tensor is a typed view (offset + shape, row-major, float32) into backend-owned storage.
 * Storage stays on the backend's device (a GPUBuffer for WebGPU, a Float32Array for the
 * CPU); only `Backend.read` brings values back. Views share storage, so a big flat buffer
 * (for example every parameter of a network) can be addressed piece by piece.
 */
export interface TensorStorage {
  /** Unique per storage within the process; used for caching and aliasing checks. */
  readonly id: number;
  /** Length in float32 elements. */
  readonly length: number;
  /** The backend instance that owns the storage. */
  readonly owner: symbol;
}

export interface Tensor {
  readonly shape: readonly number[];
  /** Number of elements (product of the shape). */
  readonly size: number;
  /** Element offset of this view into its storage. */
  readonly offset: number;
  readonly storage: TensorStorage;
}

let nextStorageId = 1;
export const newStorageId = (): number => nextStorageId++;

export function shapeSize(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) {
    if (!Number.isInteger(d) || d < 0) throw new Error(`invalid tensor dimension ${d} in [${shape.join(', ')}]`);
    n *= d;
  }
  return n;
}

export function makeView(base: Tensor, offset: number, shape: readonly number[]): Tensor {
  const size = shapeSize(shape);
  const start = base.offset + offset;
  if (offset < 0 || start + size > base.offset + base.size) {
    throw new Error(`view [${offset}, ${offset + size}) is outside a tensor of ${base.size} elements`);
  }
  return { shape: [...shape], size, offset: start, storage: base.storage };
}

/** Same storage and offset, new shape with the same number of elements. */
export function reshape(t: Tensor, shape: readonly number[]): Tensor {
  if (shapeSize(shape) !== t.size) throw new Error(`cannot reshape [${t.shape.join(', ')}] to [${shape.join(', ')}]`);
  return { ...t, shape: [...shape] };
}

/** Rows and columns of a tensor seen as a matrix: the last dimension is the columns. */
export function asMatrix(t: Tensor): { rows: number; cols: number } {
  const cols = t.shape.length === 0 ? 1 : t.shape[t.shape.length - 1];
  return { rows: cols === 0 ? 0 : t.size / cols, cols };
}
