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

export function asFeatureVectorEnv(venv: VectorEnv): FeatureVectorEnv {
  const features = (o: { vector?: Float32Array }, i: number): Float32Array => {
    if (!o.vector) throw new Error(`sub-env ${i} returned no "vector" observation: make the vector env with observation 'vector'`);
    return o.vector;
  };
  let size = 0;
  /** An env that could not reset has no observation: zeros of the right length keep the batch rectangular. */
  const obsOf = (list: { vector?: Float32Array }[]) =>
    list.map((o, i) => {
      if (!o.vector && size) return new Float32Array(size);
      const v = features(o, i);
      size = v.length;
      return v;
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
      if (venv.autoresetMode === 'same-step') info.finalObs = r.infos.map((i) => i.finalObservation?.vector ?? null);
      return { obs: obsOf(r.observations), rewards: r.rewards, terminated: r.terminated, truncated: r.truncated, info };
    },
    close: () => venv.close(),
  };
}
