/** GAE variants against values computed by hand (the arithmetic is written out in comments). */
import { describe, expect, it } from 'vitest';
import { computeGae, episodeLengths, lengthAdaptiveLambda, lengthAdaptiveLambdas, valueTargets } from './gae';

const zeros = (n: number) => new Array<number>(n).fill(0);

function expectArray(actual: ArrayLike<number>, expected: number[]): void {
  expect(actual.length).toBe(expected.length);
  expected.forEach((v, i) => expect(actual[i], `index ${i}`).toBeCloseTo(v, 5));
}

describe('computeGae', () => {
  // One env, three steps, no episode end: γ = 0.9, λ = 0.8, V = [0.5, 0.4, 0.3], V(s_3) = 0.2.
  const simple = {
    numSteps: 3,
    numEnvs: 1,
    rewards: [1, 1, 1],
    values: [0.5, 0.4, 0.3],
    terminated: zeros(3),
    truncated: zeros(3),
    bootstrapValues: zeros(3),
    lastValues: [0.2],
    gamma: 0.9,
  };

  it('matches the recursion on a trajectory without episode ends', () => {
    // δ2 = 1 + 0.9·0.2 − 0.3 = 0.88 → Â2 = 0.88
    // δ1 = 1 + 0.9·0.3 − 0.4 = 0.87 → Â1 = 0.87 + 0.72·0.88 = 1.5036
    // δ0 = 1 + 0.9·0.4 − 0.5 = 0.86 → Â0 = 0.86 + 0.72·1.5036 = 1.942592
    expectArray(computeGae({ ...simple, lambda: 0.8 }), [1.942592, 1.5036, 0.88]);
  });

  it('λ = 1 value targets are the bootstrapped Monte-Carlo returns (decoupled critic λ)', () => {
    const adv = computeGae({ ...simple, lambda: 1 });
    // Â2 = 0.88, Â1 = 0.87 + 0.9·0.88 = 1.662, Â0 = 0.86 + 0.9·1.662 = 2.3558
    expectArray(adv, [2.3558, 1.662, 0.88]);
    // G0 = 1 + 0.9 + 0.81 + 0.729·0.2 = 2.8558, G1 = 1 + 0.9 + 0.81·0.2 = 2.062, G2 = 1 + 0.9·0.2 = 1.18
    expectArray(valueTargets(adv, simple.values), [2.8558, 2.062, 1.18]);
    // The policy's λ does not change the critic's targets: decoupled estimates differ.
    expect(computeGae({ ...simple, lambda: 0.8 })[0]).not.toBeCloseTo(adv[0], 3);
  });

  // Two envs interleaved (index t·2 + e), γ = 0.5, λ = 1, V ≡ 1, V(s_4) = 2 for both:
  // env 0 terminates at t = 1, env 1 is truncated at t = 1 with V(final obs) = 10.
  const boundary = {
    numSteps: 4,
    numEnvs: 2,
    rewards: [1, 1, 2, 2, 3, 3, 4, 4],
    values: new Array(8).fill(1),
    terminated: [0, 0, 1, 0, 0, 0, 0, 0],
    truncated: [0, 0, 0, 1, 0, 0, 0, 0],
    bootstrapValues: [0, 0, 0, 10, 0, 0, 0, 0],
    lastValues: [2, 2],
    gamma: 0.5,
    lambda: 1,
  };

  it('cuts the trace at episode ends; termination does not bootstrap, truncation bootstraps V(final obs)', () => {
    const adv = computeGae(boundary);
    // t3: δ = 4 + 0.5·2 − 1 = 4; t2: δ = 3 + 0.5·1 − 1 = 2.5 → Â2 = 2.5 + 0.5·4 = 4.5 (both envs)
    // env 0, t1 terminated: Â1 = 2 + 0 − 1 = 1;        t0: Â0 = (1 + 0.5·1 − 1) + 0.5·1 = 1
    // env 1, t1 truncated:  Â1 = 2 + 0.5·10 − 1 = 6;   t0: Â0 = 0.5 + 0.5·6 = 3.5
    expectArray(adv, [1, 3.5, 1, 6, 4.5, 4.5, 4, 4]);
  });

  it('a step that is both terminated and truncated does not bootstrap', () => {
    const adv = computeGae({ ...boundary, terminated: [0, 0, 1, 1, 0, 0, 0, 0] });
    expect(adv[3]).toBeCloseTo(1, 6);
  });

  it('skips next-step autoreset transitions and bootstraps the truncated step before them', () => {
    // t1 truncated (its final obs has V = 3, seen again as the obs of the reset step t2), t2 invalid.
    const adv = computeGae({
      numSteps: 4,
      numEnvs: 1,
      rewards: [1, 1, 0, 1],
      values: [1, 2, 3, 4],
      terminated: zeros(4),
      truncated: [0, 1, 0, 0],
      valid: [1, 1, 0, 1],
      bootstrapValues: [0, 3, 0, 0],
      lastValues: [5],
      gamma: 0.5,
      lambda: 1,
    });
    // t3: 1 + 0.5·5 − 4 = −0.5; t2: 0 (invalid); t1: 1 + 0.5·3 − 2 = 0.5; t0: (1 + 0.5·2 − 1) + 0.5·0.5 = 1.25
    expectArray(adv, [1.25, 0.5, 0, -0.5]);
  });

  it('uses a per-step λ (different episodes, different λ)', () => {
    const adv = computeGae({
      numSteps: 4,
      numEnvs: 1,
      rewards: [1, 1, 1, 1],
      values: zeros(4),
      terminated: [0, 1, 0, 0],
      truncated: zeros(4),
      bootstrapValues: zeros(4),
      lastValues: [0],
      gamma: 1,
      lambda: [0.5, 0.5, 0.25, 0.25],
    });
    // episode 2: Â3 = 1, Â2 = 1 + 0.25·1 = 1.25; episode 1: Â1 = 1, Â0 = 1 + 0.5·1 = 1.5
    expectArray(adv, [1.5, 1, 1.25, 1]);
  });
});

describe('length-adaptive λ', () => {
  it('λ = 1 − 1/(α·l) clamped to [floor, 1]', () => {
    expect(lengthAdaptiveLambda(400, 0.05, 0.9)).toBeCloseTo(0.95, 10); // 1 − 1/20
    expect(lengthAdaptiveLambda(1000, 0.05, 0.9)).toBeCloseTo(0.98, 10); // 1 − 1/50
    expect(lengthAdaptiveLambda(100, 0.05, 0.9)).toBe(0.9); // 1 − 1/5 = 0.8 < floor
    expect(lengthAdaptiveLambda(20, 0.05, 0)).toBe(0); // exactly 0 at l = 1/α
    expect(lengthAdaptiveLambda(10, 0.05, 0)).toBe(0); // formula gives −1
    expect(lengthAdaptiveLambda(10, 0.05, 0.3)).toBe(0.3);
    expect(lengthAdaptiveLambda(0, 0.05, 0.3)).toBe(0.3);
    expectArray(lengthAdaptiveLambdas([40, 200], 0.05, 0), [0.5, 0.9]);
  });

  it('episode lengths count earlier rollouts, and running episodes get their length so far', () => {
    // The running episode had 3 steps before the rollout; it terminates at t1 (length 5),
    // the next is truncated at t4 (length 3), the last is still running at the end (1 so far).
    expectArray(
      episodeLengths({ numSteps: 6, numEnvs: 1, terminated: [0, 1, 0, 0, 0, 0], truncated: [0, 0, 0, 0, 1, 0], startLengths: [3] }),
      [5, 5, 3, 3, 3, 1],
    );
    // Two envs and a next-step reset transition (t2 of env 0) that belongs to no episode.
    expectArray(
      episodeLengths({
        numSteps: 4,
        numEnvs: 2,
        terminated: [0, 0, 1, 0, 0, 0, 0, 1],
        truncated: zeros(8),
        valid: [1, 1, 1, 1, 0, 1, 1, 1],
        startLengths: [0, 10],
      }),
      [2, 14, 2, 14, 0, 14, 1, 14],
    );
  });
});
