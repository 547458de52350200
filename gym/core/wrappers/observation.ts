import type { Observation } from '../../env/observation';
import { ArcadeGymError } from '../../errors';
import type { Env } from '../env';
import { batchSpace, type Space } from '../spaces';
import type { VectorEnv } from '../vector-env';
import { ObservationWrapper, VectorObservationWrapper } from './wrapper';

/** Which part of an arcade Observation becomes the flat observation an agent or trainer reads. */
export type FlatObservationKind = 'vector' | 'pixels';

type BoxSpace = Extract<Space, { type: 'Box' }>;

/** The Box space of `kind` inside an arcade env's Dict observation space. */
function boxOf(space: Space, kind: FlatObservationKind): BoxSpace {
  const inner = space.type === 'Dict' ? space.spaces[kind] : undefined;
  if (inner?.type !== 'Box') {
    throw new ArcadeGymError(
      'INVALID_OPTIONS',
      `the env returns no "${kind}" observation: make it with observation '${kind}' (it has ${space.type === 'Dict' ? Object.keys(space.spaces).join(', ') : space.type})`,
    );
  }
  return inner;
}

function pick(o: Observation | undefined, kind: FlatObservationKind): ArrayLike<number> | undefined {
  return kind === 'vector' ? o?.vector : o?.pixels?.data;
}

/**
 * An arcade env seen through one flat observation: the verifier's feature vector (float32),
 * or the pixel observation (height × width × channels bytes, which the trainer's CNN scales
 * and transposes itself).
 */
export class FlatObservation<Act, RInfo = object, SInfo = object> extends ObservationWrapper<Observation, ArrayLike<number>, Act, RInfo, SInfo> {
  private readonly space: BoxSpace;

  constructor(
    env: Env<Observation, Act, RInfo, SInfo>,
    readonly kind: FlatObservationKind,
  ) {
    super(env);
    this.space = boxOf(env.observationSpace, kind);
  }

  get observationSpace(): Space {
    return this.space;
  }

  protected observation(obs: Observation): ArrayLike<number> {
    const v = pick(obs, this.kind);
    if (!v) throw new ArcadeGymError('INVALID_OPTIONS', `the env returned no "${this.kind}" observation`);
    return v;
  }
}

/** FlatObservation with the verifier's feature vector. */
export class FeatureVectorObservation<Act, RInfo = object, SInfo = object> extends FlatObservation<Act, RInfo, SInfo> {
  constructor(env: Env<Observation, Act, RInfo, SInfo>) {
    super(env, 'vector');
  }
}

/** FlatObservation with the pixel observation's bytes. */
export class PixelObservationWrapper<Act, RInfo = object, SInfo = object> extends FlatObservation<Act, RInfo, SInfo> {
  constructor(env: Env<Observation, Act, RInfo, SInfo>) {
    super(env, 'pixels');
  }
}

/**
 * The vector version. A sub-env that could not reset has no observation yet: it reads as
 * zeros of the right length, which keeps the batch rectangular (it is reported truncated).
 */
export class VectorFlatObservation<Act, RInfo = object, SInfo = object> extends VectorObservationWrapper<Observation, ArrayLike<number>, Act, RInfo, SInfo> {
  private readonly space: BoxSpace;

  constructor(
    env: VectorEnv<Observation, Act, RInfo, SInfo>,
    readonly kind: FlatObservationKind,
  ) {
    super(env);
    this.space = boxOf(env.singleObservationSpace, kind);
  }

  get singleObservationSpace(): Space {
    return this.space;
  }

  get observationSpace(): Space {
    return batchSpace(this.space, this.numEnvs);
  }

  protected observation(obs: Observation | undefined, i: number): ArrayLike<number> {
    const v = pick(obs, this.kind);
    if (v) return v;
    if (obs && Object.keys(obs).length > 0) throw new ArcadeGymError('INVALID_OPTIONS', `sub-env ${i} returned no "${this.kind}" observation`);
    const n = this.space.shape.reduce((a, b) => a * b, 1);
    return this.space.dtype === 'uint8' ? new Uint8Array(n) : new Float32Array(n);
  }
}
