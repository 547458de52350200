import { describe, expect, it } from 'vitest';
import { CARTPOLE, CartPole } from './cartpole';
import { CartPoleVectorEnv } from './vector';

describe('CartPole-v1 dynamics', () => {
  it('one Euler step from rest pushing right matches the hand-computed update', () => {
    const env = new CartPole(0);
    env.reset();
    env.setState({ ...env.getState(), physics: [0, 0, 0, 0], elapsedSteps: 0 });
    const r = env.step(1);
    // temp = F/M = 10/1.1; θ'' = −temp / (l·(4/3 − m_p/M)); x'' = temp − m_p·l·θ''/M.
    const temp = 10 / 1.1;
    const thetaAcc = -temp / (0.5 * (4 / 3 - 0.1 / 1.1));
    const xAcc = temp - (0.05 * thetaAcc) / 1.1;
    const o = r.observation;
    expect(o[0]).toBe(0); // x uses the old velocity (Euler)
    expect(o[1]).toBeCloseTo(0.02 * xAcc, 6); // 0.19512195
    expect(o[2]).toBe(0);
    expect(o[3]).toBeCloseTo(0.02 * thetaAcc, 6); // −0.29268293
    expect(o[1]).toBeCloseTo(0.19512195, 6);
    expect(o[3]).toBeCloseTo(-0.29268293, 6);
    expect(r).toMatchObject({ reward: 1, terminated: false, truncated: false });
  });

  it('seeded resets are reproducible and uniform within ±0.05', () => {
    const a = new CartPole();
    const b = new CartPole();
    const obs = (env: CartPole, seed?: number) => Array.from(env.reset(seed === undefined ? {} : { seed }).observation);
    expect(obs(a, 123)).toEqual(obs(b, 123));
    expect(obs(a, 124)).not.toEqual(obs(b, 123));
    for (let i = 0; i < 200; i++) for (const v of obs(a)) expect(Math.abs(v)).toBeLessThanOrEqual(0.05);
  });

  it('terminates past 12° or 2.4 and truncates at 500 steps', () => {
    const env = new CartPole(1);
    env.reset();
    const rng = env.getState().rng;
    env.setState({ physics: [0, 0, CARTPOLE.thetaThresholdRadians - 1e-4, 1], elapsedSteps: 3, rng });
    expect(env.step(0)).toMatchObject({ terminated: true, truncated: false, reward: 1 });
    env.setState({ physics: [2.399, 1, 0, 0], elapsedSteps: 3, rng });
    expect(env.step(1).terminated).toBe(true);
    env.setState({ physics: [0, 0, 0, 0], elapsedSteps: 499, rng });
    expect(env.step(0)).toMatchObject({ terminated: false, truncated: true });
  });

  it('always pushing one way ends an episode within a few dozen steps', () => {
    const env = new CartPole(5);
    env.reset();
    let steps = 0;
    for (;;) {
      steps++;
      const r = env.step(1);
      if (r.terminated || r.truncated) break;
    }
    expect(steps).toBeGreaterThan(5);
    expect(steps).toBeLessThan(60);
  });
});

describe('CartPoleVectorEnv (a SyncVectorEnv of CartPoles)', () => {
  /** Steps env 0 with a constant action until its episode ends; returns that step's result. */
  async function runUntilDone(env: CartPoleVectorEnv) {
    for (let t = 0; t < 1000; t++) {
      const r = await env.step(new Array(env.numEnvs).fill(1));
      if (r.terminated[0] || r.truncated[0]) return r;
    }
    throw new Error('episode did not end');
  }

  it('knows its spaces before the first reset', () => {
    const env = new CartPoleVectorEnv(3);
    expect(env.singleObservationSpace).toMatchObject({ type: 'Box', shape: [4] });
    expect(env.observationSpace).toMatchObject({ type: 'Box', shape: [3, 4] });
    expect(env.actionSpace).toEqual({ type: 'MultiDiscrete', nvec: [2, 2, 2] });
    expect(env.autoresetMode).toBe('next-step');
  });

  it('same-step autoreset returns the reset obs and the final obs in infos', async () => {
    const env = new CartPoleVectorEnv(3, { autoreset: 'same-step' });
    await env.reset({ seed: 7 });
    const r = await runUntilDone(env);
    const final = r.infos[0].finalObservation;
    expect(final).toBeTruthy();
    expect(Math.abs(final![2]) > CARTPOLE.thetaThresholdRadians || Math.abs(final![0]) > 2.4).toBe(true);
    for (const v of r.observations[0]) expect(Math.abs(v)).toBeLessThanOrEqual(0.05);
    expect(r.rewards[0]).toBe(1);
  });

  it('next-step autoreset returns the final obs, then a reset step with reward 0', async () => {
    const env = new CartPoleVectorEnv(2, { autoreset: 'next-step' });
    await env.reset({ seed: 7 });
    const done = await runUntilDone(env);
    const final = done.observations[0];
    expect(Math.abs(final[2]) > CARTPOLE.thetaThresholdRadians || Math.abs(final[0]) > 2.4).toBe(true);
    const next = await env.step([0, 0]);
    expect(next.rewards[0]).toBe(0);
    expect(next.infos[0].autoreset).toBe(true);
    expect(next.terminated[0] || next.truncated[0]).toBe(false);
    for (const v of next.observations[0]) expect(Math.abs(v)).toBeLessThanOrEqual(0.05);
  });

  it('seeds env i with seed + i, and per-env seed arrays give identical starts', async () => {
    const a = new CartPoleVectorEnv(3);
    const b = new CartPoleVectorEnv(1);
    const obsA = (await a.reset({ seed: 10 })).observations;
    expect(Array.from(obsA[2])).toEqual(Array.from((await b.reset({ seed: 12 })).observations[0]));
    const same = (await a.reset({ seed: [4, 4, 4] })).observations;
    expect(Array.from(same[0])).toEqual(Array.from(same[2]));
    await expect(a.reset({ seed: [1, 2] })).rejects.toThrow(/2 seeds for 3 envs/);
  });

  it('getState/setState resumes exactly', async () => {
    const a = new CartPoleVectorEnv(4, { autoreset: 'next-step' });
    await a.reset({ seed: 3 });
    for (let t = 0; t < 30; t++) await a.step([t % 2, 1, 0, (t >> 2) % 2]);
    const snapshot = JSON.parse(JSON.stringify(a.getState()));
    const b = new CartPoleVectorEnv(4, { autoreset: 'next-step' });
    b.setState(snapshot);
    for (let t = 0; t < 50; t++) {
      const actions = [1, t % 2, 0, 1];
      expect(await b.step(actions)).toEqual(await a.step(actions));
    }
  });
});
