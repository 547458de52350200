import type { Env } from '../env';
import { boxSpace, batchSpace, type Space } from '../spaces';
import type { VectorEnv } from '../vector-env';
import { ObservationWrapper, VectorObservationWrapper, unwrapState, wrapState } from './wrapper';

export interface FrameStackState {
  frames: number[][][];
}

function stackedSpace(space: Space, stackSize: number): Space {
  if (space.type !== 'Box') throw new Error(`frame stacking needs a Box observation space, got ${space.type}`);
  return { ...boxSpace([stackSize, ...space.shape], space.dtype, space.low, space.high) };
}

function checkStackSize(stackSize: number): void {
  if (!Number.isInteger(stackSize) || stackSize < 1) throw new Error(`stackSize must be a positive integer, got ${stackSize}`);
}

/**
 * The stack after `obs`, oldest frame first: an episode's first observation (a restart, or an
 * empty stack) fills all `stackSize` places, any later one pushes the oldest out. Shared with
 * agents that stack frames themselves (the ppo agent).
 */
export function pushFrame<F>(frames: readonly F[], obs: F, stackSize: number, restart: boolean): F[] {
  return restart || frames.length === 0 ? new Array(stackSize).fill(obs) : [...frames.slice(1), obs];
}

/** The last `stackSize` frames, oldest first, in one array of the frames' own type. */
export function concatFrames(frames: readonly ArrayLike<number>[], uint8: boolean): ArrayLike<number> {
  const n = frames[0].length;
  const out = uint8 ? new Uint8Array(n * frames.length) : new Float32Array(n * frames.length);
  for (const [k, f] of frames.entries()) out.set(f, k * n);
  return out;
}

/**
 * Gymnasium's FrameStackObservation with padding "reset": the observation is the last
 * `stackSize` observations, oldest first (shape [stackSize, ...shape]); a reset fills the
 * stack with its first observation. Stacked 84×84×1 pixels read as [k, 84, 84], the CNN's
 * channel-first layout.
 */
export class FrameStackObservation<Act, RInfo = object, SInfo = object> extends ObservationWrapper<ArrayLike<number>, ArrayLike<number>, Act, RInfo, SInfo> {
  private frames: ArrayLike<number>[] = [];
  private readonly uint8: boolean;

  constructor(
    env: Env<ArrayLike<number>, Act, RInfo, SInfo>,
    readonly stackSize: number,
  ) {
    super(env);
    checkStackSize(stackSize);
    this.uint8 = env.observationSpace.type === 'Box' && env.observationSpace.dtype === 'uint8';
  }

  get observationSpace(): Space {
    return stackedSpace(this.env.observationSpace, this.stackSize);
  }

  protected observation(obs: ArrayLike<number>, reset: boolean): ArrayLike<number> {
    this.frames = pushFrame(this.frames, obs, this.stackSize, reset);
    return concatFrames(this.frames, this.uint8);
  }

  override getState(): unknown {
    return wrapState(this.env, { frames: [this.frames.map((f) => Array.from(f))] } satisfies FrameStackState);
  }

  override setState(state: unknown): void {
    const own = unwrapState(this.env, state) as FrameStackState;
    this.frames = own.frames[0].map((f) => (this.uint8 ? Uint8Array.from(f) : Float32Array.from(f)));
  }
}

/** The vector version: one stack per sub-env, refilled when its episode restarts (either autoreset mode). */
export class VectorFrameStackObservation<Act, RInfo = object, SInfo = object> extends VectorObservationWrapper<
  ArrayLike<number>,
  ArrayLike<number>,
  Act,
  RInfo,
  SInfo
> {
  private frames: ArrayLike<number>[][];
  private readonly uint8: boolean;

  constructor(
    env: VectorEnv<ArrayLike<number>, Act, RInfo, SInfo>,
    readonly stackSize: number,
  ) {
    super(env);
    checkStackSize(stackSize);
    this.frames = Array.from({ length: env.numEnvs }, () => []);
    this.uint8 = env.singleObservationSpace.type === 'Box' && env.singleObservationSpace.dtype === 'uint8';
  }

  get singleObservationSpace(): Space {
    return stackedSpace(this.env.singleObservationSpace, this.stackSize);
  }

  get observationSpace(): Space {
    return batchSpace(this.singleObservationSpace, this.numEnvs);
  }

  protected observation(obs: ArrayLike<number>, i: number, kind: 'reset' | 'step' | 'final'): ArrayLike<number> {
    this.frames[i] = pushFrame(this.frames[i], obs, this.stackSize, kind === 'reset');
    return concatFrames(this.frames[i], this.uint8);
  }

  override getState(): unknown {
    return wrapState(this.env, { frames: this.frames.map((s) => s.map((f) => Array.from(f))) } satisfies FrameStackState);
  }

  override setState(state: unknown): void {
    const own = unwrapState(this.env, state) as FrameStackState;
    this.frames = own.frames.map((s) => s.map((f) => (this.uint8 ? Uint8Array.from(f) : Float32Array.from(f))));
  }
}
