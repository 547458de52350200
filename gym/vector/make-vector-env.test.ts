import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../schema/records';
import { useBrowser } from '../testing/harness';
import { crashPage } from '../pool/faults';
import type { EpisodeOutcome } from '../pool/outcome';
import { VectorFlatObservation } from '../core/wrappers/observation';
import { BatchedVectorEnv, makeVectorEnv, PooledVectorEnv, type ArcadeVectorEnv, type VectorEnvOptions } from './make-vector-env';

const gym = useBrowser();
const vecs: ArcadeVectorEnv[] = [];
afterAll(async () => {
  await Promise.all(vecs.map((v) => v.close()));
});
function pooledVec(options: VectorEnvOptions): PooledVectorEnv {
  const v = makeVectorEnv({ ...options, batched: false });
  vecs.push(v);
  return v;
}

/** States a single, plain env goes through for `seed` and `actions`. */
async function singleRun(seed: number, actions: number[], maxSteps: number) {
  const env = await gym.env({ game: 'snake', observation: 'state', maxSteps });
  const states = [(await env.reset({ seed })).info.state];
  for (const a of actions) {
    const r = await env.step(a);
    states.push(r.info.state);
    if (r.terminated || r.truncated) break;
  }
  return states;
}

/** Steps taken in sub-env i's episode, whichever kind of vector env. */
function stepsOf(v: ArcadeVectorEnv, i: number): number {
  return v instanceof BatchedVectorEnv ? v.subEnv(i)!.steps : (v as PooledVectorEnv).subEnv(i)!.episodeSteps;
}

describe.each([
  ['PooledVectorEnv (a page per env)', false],
  ['BatchedVectorEnv (several instances per page)', true],
])('%s', (_, batched) => {
  const vec = (options: VectorEnvOptions): ArcadeVectorEnv => {
    const v = makeVectorEnv({ ...options, batched });
    expect(v).toBeInstanceOf(batched ? BatchedVectorEnv : PooledVectorEnv);
    vecs.push(v);
    return v;
  };

  it('a seeded reset gives env i seed + i and then a sequence of its own: no two sub-envs share an episode seed', async () => {
    const v = vec({ game: 'snake', numEnvs: 4, seed: 7, observation: 'state', maxSteps: 2 });
    const play = async () => {
      const seeds: number[][] = (await v.reset({ seed: 40 })).infos.map((i) => ['seed' in i && typeof i.seed === 'number' ? i.seed : -1]);
      // maxSteps 2 under next-step autoreset: every third step resets every env.
      for (let t = 0; t < 9; t++) {
        const r = await v.step([4, 4, 4, 4]);
        r.infos.forEach((info, i) => {
          if (info.autoreset) seeds[i].push(info.resetInfo && 'seed' in info.resetInfo ? (info.resetInfo.seed as number) : -1);
        });
      }
      return seeds;
    };
    const first = await play();
    expect(first.map((s) => s[0])).toEqual([40, 41, 42, 43]);
    expect(first.every((s) => s.length === 4)).toBe(true);
    expect(new Set(first.flat()).size).toBe(16);
    // The same seeded reset again replays the same sequences, whatever the env played since.
    expect(await play()).toEqual(first);
  });

  it("next-step autoreset (Gymnasium 1.0's default): the end step returns the final obs, the next one resets and ignores the action", async () => {
    const outcomes: [number, EpisodeOutcome][] = [];
    const v = vec({ game: 'snake', numEnvs: 3, seed: 10, observation: 'state', maxSteps: 4, onEpisode: (i, o) => outcomes.push([i, o]) });
    expect(v.autoresetMode).toBe('next-step');
    const reset = await v.reset();
    expect(reset.infos.map((i) => ('seed' in i ? i.seed : null))).toEqual([10, 11, 12]);
    const actions = [
      [1, 2, 3],
      [1, 2, 0],
      [4, 4, 4],
      [2, 1, 0],
    ];
    const states: unknown[][] = [[], [], []];
    reset.observations.forEach((o, i) => states[i].push(o.state));
    let r;
    for (const a of actions) {
      r = await v.step(a);
      r.observations.forEach((o, i) => states[i].push(o.state));
    }
    expect(r!.truncated.every((t, i) => t || r!.terminated[i])).toBe(true);
    expect(r!.infos.every((i) => i.episode)).toBe(true);
    // Each sub-env did exactly what a single env does with its seed and actions.
    for (let i = 0; i < 3; i++) {
      const single = await singleRun(
        10 + i,
        actions.map((a) => a[i]),
        4,
      );
      expect(states[i].slice(0, single.length)).toEqual(single);
    }
    const next = await v.step([3, 3, 3]);
    expect(next.infos.every((i) => i.autoreset === true)).toBe(true);
    expect([...next.rewards]).toEqual([0, 0, 0]);
    expect(next.terminated).toEqual([false, false, false]);
    expect(next.truncated).toEqual([false, false, false]);
    // A fresh episode's first frame: the action (3 = left) was not applied.
    expect(next.observations.every((o) => o.state!.ticks === 0)).toBe(true);
    const after = await v.step([4, 4, 4]);
    expect(after.infos.every((i) => !i.autoreset && i.step === 1)).toBe(true);
    expect(outcomes.map(([i, o]) => [i, o.status])).toEqual(
      expect.arrayContaining([
        [0, 'complete'],
        [1, 'complete'],
        [2, 'complete'],
      ]),
    );
  });

  it('same-step autoreset: the end step returns the new episode, with the final obs and info in infos', async () => {
    const v = vec({ game: 'snake', numEnvs: 2, seed: 3, observation: ['state', 'vector'], maxSteps: 2, autoreset: 'same-step' });
    await v.reset();
    await v.step([4, 4]);
    const end = await v.step([4, 4]);
    expect(end.truncated).toEqual([true, true]);
    for (const info of end.infos) {
      expect(info.finalObservation?.state?.ticks).toBeGreaterThan(0);
      expect(info.finalInfo?.episode?.totals.length).toBe(2);
      expect(info.resetInfo?.seed).toBeDefined();
    }
    expect(end.observations.every((o) => o.state!.ticks === 0 && o.vector instanceof Float32Array)).toBe(true);
    const next = await v.step([1, 1]);
    expect(next.infos.every((i) => i.step === 1)).toBe(true);
  });

  it('validates every action before any env steps', async () => {
    const v = vec({ game: 'snake', numEnvs: 2, seed: 1, observation: 'state', maxSteps: 10 });
    await v.reset();
    await expect(v.step([1, 9])).rejects.toMatchObject({ code: 'ACTION_OUT_OF_RANGE' });
    await expect(v.step([1])).rejects.toMatchObject({ code: 'INVALID_ACTION' });
    expect(stepsOf(v, 0)).toBe(0);
    const r = await v.step([1, 1]);
    expect(r.infos.map((i) => i.step)).toEqual([1, 1]);
    expect(() => makeVectorEnv({ game: 'snake', numEnvs: 0 })).toThrow(/numEnvs must be a positive integer/);
  });

  it('knows its spaces before the first reset', () => {
    const v = vec({ game: 'snake', numEnvs: 2, observation: ['state', 'vector'] });
    expect(v.numEnvs).toBe(2);
    expect(v.singleActionSpace).toMatchObject({ type: 'Discrete', n: 5 });
    expect(v.actionSpace).toEqual({ type: 'MultiDiscrete', nvec: [5, 5] });
    expect(v.singleObservationSpace).toMatchObject({ type: 'Dict', spaces: { vector: { type: 'Box', shape: [13] } } });
    expect(v.observationSpace).toMatchObject({ type: 'Dict', spaces: { vector: { type: 'Box', shape: [2, 13] } } });
  });

  it('VectorFlatObservation gives the flat float32 batches the PPO trainer consumes', async () => {
    const v = vec({ game: 'snake', numEnvs: 2, seed: 5, observation: 'vector', maxSteps: 3, autoreset: 'same-step' });
    const f = new VectorFlatObservation(v, 'vector');
    expect(f.singleObservationSpace).toMatchObject({ type: 'Box', shape: [13], dtype: 'float32' });
    const { observations } = await f.reset({ seed: 5 });
    expect(observations).toHaveLength(2);
    expect(observations[0]).toBeInstanceOf(Float32Array);
    expect(observations[0].length).toBe(13);
    let r;
    for (let i = 0; i < 3; i++) r = await f.step([1, 2]);
    expect(r!.truncated).toEqual([true, true]);
    expect(r!.infos.every((i) => i.finalObservation instanceof Float32Array && i.finalObservation.length === 13)).toBe(true);
    expect(r!.observations.every((o) => o.length === 13)).toBe(true);
    expect(() => new VectorFlatObservation(v, 'pixels')).toThrow(/no "pixels" observation/);
  });
});

describe('PooledVectorEnv faults', () => {
  it("one env's crash does not break the batch: it is rebuilt within the step, or truncated with its cause", async () => {
    const actions = [1, 2, 2, 3, 0, 1];
    const seeds = 20;
    const ended = { clean: new Map<number, EpisodeOutcome>(), faulty: new Map<number, EpisodeOutcome>() };
    const clean = pooledVec({ game: 'snake', numEnvs: 3, seed: seeds, observation: 'state', maxSteps: 6, onEpisode: (i, o) => ended.clean.set(i, o) });
    const faulty = pooledVec({ game: 'snake', numEnvs: 3, seed: seeds, observation: 'state', maxSteps: 6, onEpisode: (i, o) => ended.faulty.set(i, o) });
    const hopeless = pooledVec({ game: 'snake', numEnvs: 3, seed: seeds, observation: 'state', maxSteps: 6, maxRecoveries: 0 });
    await Promise.all([clean.reset(), faulty.reset(), hopeless.reset()]);
    for (const [k, a] of actions.entries()) {
      if (k === 2) {
        await crashPage(faulty.subEnv(1)!.env.currentPage!);
        await crashPage(hopeless.subEnv(1)!.env.currentPage!);
      }
      const [c, f, h] = await Promise.all([clean, faulty, hopeless].map((v) => v.step([a, a, a])));
      expect(f.observations.map((o) => o.state)).toEqual(c.observations.map((o) => o.state));
      expect([...f.rewards]).toEqual([...c.rewards]);
      if (k === 2) {
        expect(f.infos[1].recovered?.cause.code).toBe('PAGE_CRASHED');
        expect(h.truncated).toEqual([false, true, false]);
        expect(h.infos[1].failure?.code).toBe('PAGE_CRASHED');
        expect(h.observations[0].state).toEqual(c.observations[0].state);
        expect(h.observations[2].state).toEqual(c.observations[2].state);
      }
      if (k === 3) expect(h.infos[1].autoreset).toBe(true); // next-step autoreset after the truncation
    }
    // The crashed env's episode ended as recovered, with the record of the clean run.
    expect(ended.faulty.get(1)?.status).toBe('recovered');
    expect(canonicalJson(ended.faulty.get(1)!.record)).toBe(canonicalJson(ended.clean.get(1)!.record));
    expect(ended.faulty.get(0)?.status).toBe('complete');
  });
});
