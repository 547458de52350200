/**
 * The macro-action wrapper over a real env (CartPole: a reward of 1 per step, and it falls over
 * when pushed one way long enough): the primitive sequence a decision becomes, the reward sum,
 * the early stop on termination, determinism, and the primitive-step count a budget reads.
 */
import { describe, expect, it } from 'vitest';
import { CartPole } from '../../cartpole/cartpole';
import type { Env } from '../env';
import { discreteSpace } from '../spaces';
import { SyncVectorEnv } from '../sync-vector-env';
import { MacroAction, VectorCountPrimitiveSteps, type MacroPlanner } from './macro-action';

/** Decision d = push (d % 2: left, right) for 1 + ⌊d/2⌋ steps; the controller counts its own pushes. */
const pushes: MacroPlanner<number> = {
  numDecisions: 100,
  names: Array.from({ length: 100 }, (_, d) => `push ${d % 2} × ${1 + Math.floor(d / 2)}`),
  start(decision) {
    let left = 1 + Math.floor(decision / 2);
    return { next: () => (left-- > 0 ? decision % 2 : null) };
  },
};

describe('MacroAction', () => {
  it('steps the env once per primitive action, in order, and sums the rewards', async () => {
    const env = new MacroAction(new CartPole(), pushes);
    const raw = new CartPole();
    await env.reset({ seed: 4 });
    raw.reset({ seed: 4 });
    const r = await env.step(5); // right × 3
    expect(r.info.macro).toEqual({ actions: [1, 1, 1], steps: 3 });
    expect(r.reward).toBe(3);
    for (let i = 0; i < 3; i++) raw.step(1);
    expect(Array.from(r.observation)).toEqual(Array.from(raw.observe()));
    expect(env.actionSpace).toMatchObject({ type: 'Discrete', n: 100 });
  });

  it('discounts inside the macro when given γ, and says by how much the next decision is discounted', async () => {
    const env = new MacroAction(new CartPole(), pushes, { gamma: 0.9 });
    await env.reset({ seed: 4 });
    const r = await env.step(4); // left × 3
    expect(r.reward).toBeCloseTo(1 + 0.9 + 0.81, 12);
    expect(r.info.macro.discount).toBeCloseTo(0.9 ** 3, 12);
    expect(() => new MacroAction(new CartPole(), pushes, { gamma: 0 })).toThrow(/gamma must be in \(0, 1\]/);
  });

  it('stops at termination, mid-decision', async () => {
    const env = new MacroAction(new CartPole(), pushes);
    const raw = new CartPole();
    await env.reset({ seed: 1 });
    raw.reset({ seed: 1 });
    let fell = 0;
    while (!raw.step(1).terminated) fell++;
    const r = await env.step(99); // right × 50: CartPole falls long before
    expect(r.terminated).toBe(true);
    expect(r.info.macro.steps).toBe(fell + 1);
    expect(r.info.macro.steps).toBeLessThan(50);
    expect(r.reward).toBe(fell + 1);
  });

  it('is deterministic: the same seed and decisions give the same steps', async () => {
    const play = async () => {
      const env = new MacroAction(new CartPole(), pushes);
      await env.reset({ seed: 7 });
      const out: unknown[] = [];
      for (const d of [0, 3, 1, 2, 0, 1]) {
        const r = await env.step(d);
        out.push([Array.from(r.observation), r.reward, r.info.macro.actions, r.terminated]);
        if (r.terminated) break;
      }
      return out;
    };
    expect(await play()).toEqual(await play());
  });

  it('refuses a decision outside its set, and a step before reset', async () => {
    const env = new MacroAction(new CartPole(), pushes);
    await expect(env.step(0)).rejects.toThrow(/reset\(\) first/);
    await env.reset({ seed: 0 });
    await expect(env.step(100)).rejects.toThrow(/integer in 0\.\.99, got 100/);
    await expect(env.step(1.5)).rejects.toThrow(/got 1\.5/);
  });

  it('refuses a planner whose decision never ends, or gives no action', async () => {
    // Decision 0 never ends, decision 1 does nothing; the env never ends an episode (a step counter).
    const endless: MacroPlanner<number> = { numDecisions: 2, names: ['a', 'b'], start: (d) => ({ next: () => (d === 0 ? 0 : null) }) };
    let t = 0;
    const counter: Env<number, number> = {
      observationSpace: discreteSpace(1_000),
      actionSpace: discreteSpace(1),
      reset: () => ({ observation: (t = 0), info: {} }),
      step: () => ({ observation: ++t, reward: 0, terminated: false, truncated: false, info: {} }),
      close() {},
    };
    const env = new MacroAction(counter, endless);
    await env.reset({ seed: 0 });
    await expect(env.step(0)).rejects.toThrow(/did not end within 64 primitive actions/);
    await expect(env.step(1)).rejects.toThrow(/gave no primitive action/);
  });

  it('VectorCountPrimitiveSteps counts the primitive steps under the decisions', async () => {
    const venv = new VectorCountPrimitiveSteps(
      new SyncVectorEnv(
        [0, 1].map(() => () => new MacroAction(new CartPole(), pushes)),
        { autoreset: 'same-step' },
      ),
    );
    await venv.reset({ seed: 0 });
    const a = await venv.step([2, 4]); // 2 + 3 steps, unless one fell (CartPole does not in 3 steps from rest)
    expect(a.infos.map((i) => (i as { macro: { steps: number } }).macro.steps)).toEqual([2, 3]);
    expect(venv.primitiveSteps).toBe(5);
    // Pushed right until it falls: the same-step reset's final info holds the count.
    const b = await venv.step([99, 0]);
    expect(b.terminated[0]).toBe(true);
    const fell = (b.infos[0] as { finalInfo: { macro: { steps: number } } }).finalInfo.macro.steps;
    expect(venv.primitiveSteps).toBe(5 + fell + 1);
  });
});
