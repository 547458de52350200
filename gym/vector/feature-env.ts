import type { Observation } from '../env/observation';
import type { VectorEnv } from './vector-env';

/**
 * A VectorEnv seen as flat feature vectors, the shape gym/ppo's trainer consumes
 * (VectorEnvLike in gym/ppo/vector-env.ts: obs as one Float32Array per env, preset-index
 * actions). The env must be made with the 'vector' observation.
 */
export interface FeatureVectorEnv {
  readonly num: number;
  readonly autoresetMode: 'next-step' | 'same-step';
  reset(seed?: number | readonly number[]): Promise<{ obs: Float32Array[] }>;
  step(actions: readonly number[]): Promise<{
    obs: Float32Array[];
    rewards: Float64Array;
    terminated: boolean[];
    truncated: boolean[];
    info: { finalObs?: (Float32Array | null)[] };
  }>;
  close(): Promise<void>;
}

/**
 * `kind` picks what the trainer sees: the verifier's feature vector, or the pixel observation
 * (H × W × C bytes, which the trainer's CNN scales and transposes itself).
 */
export function asFeatureVectorEnv(venv: VectorEnv, kind: 'vector' | 'pixels' = 'vector'): FeatureVectorEnv {
  const features = (o: Observation, i: number): ArrayLike<number> => {
    const v = kind === 'vector' ? o.vector : o.pixels?.data;
    if (!v) throw new Error(`sub-env ${i} returned no "${kind}" observation: make the vector env with observation '${kind}'`);
    return v;
  };
  let size = 0;
  /** An env that could not reset has no observation: zeros of the right length keep the batch rectangular. */
  const obsOf = (list: Observation[]) =>
    list.map((o, i) => {
      if (!(kind === 'vector' ? o.vector : o.pixels) && size) return new Float32Array(size);
      const v = features(o, i);
      size = v.length;
      return Float32Array.from(v);
    });
  return {
    num: venv.num,
    autoresetMode: venv.autoresetMode,
    async reset(seed) {
      const r = await venv.reset({ seed });
      return { obs: obsOf(r.observations) };
    },
    async step(actions) {
      const r = await venv.step(actions);
      const info: { finalObs?: (Float32Array | null)[] } = {};
      if (venv.autoresetMode === 'same-step') {
        info.finalObs = r.infos.map((i) => {
          const last = i.finalObservation && (kind === 'vector' ? i.finalObservation.vector : i.finalObservation.pixels?.data);
          return last ? Float32Array.from(last) : null;
        });
      }
      return { obs: obsOf(r.observations), rewards: r.rewards, terminated: r.terminated, truncated: r.truncated, info };
    },
    close: () => venv.close(),
  };
}
