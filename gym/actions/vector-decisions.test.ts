/**
 * One-key decisions on batched pages: a vector env of Snake instances stepped together under
 * VectorDecisionObservation reads exactly what a page per env under withDecisions (MacroAction +
 * DecisionObservation, the general path) reads — observations, final observations, rewards and
 * episode ends — in both autoreset modes, episode ends included. This is what lets training over
 * 2048's, Snake's and Path of Light's afterstates step at the batched gym's rate.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { getGame } from '../catalog';
import { useBrowser } from '../testing/harness';
import { SeededRandom } from '../random/seeded-random';
import { makeVectorEnv, type ArcadeVectorEnv, type AutoresetMode } from '../vector/make-vector-env';
import { macroPlannerFor, withDecisions, withVectorDecisions } from './index';
import type { PooledEnv } from '../pool';

useBrowser();
const planner = (await macroPlannerFor({ kind: 'preset', observation: 'afterstates' }, getGame('snake')))!;
const opened: ArcadeVectorEnv[] = [];
afterAll(async () => {
  await Promise.all(opened.map((v) => v.close()));
});

const vectors = (o: { observations: readonly unknown[]; infos: readonly object[] }) => ({
  observations: o.observations.map((x) => Array.from((x as { vector: Float32Array }).vector)),
  finals: o.infos.map((i) => {
    const final = (i as { finalObservation?: { vector: Float32Array } }).finalObservation;
    return final ? Array.from(final.vector) : null;
  }),
});

describe.each(['next-step', 'same-step'] as AutoresetMode[])('one-key decisions, autoreset %s', (autoreset) => {
  it('batched pages observe what a page per env under withDecisions observes', { timeout: 240_000 }, async () => {
    const common = { game: 'snake', numEnvs: 3, seed: 11, observation: ['vector' as const], autoreset, maxSteps: 60 };
    const batched = makeVectorEnv({ ...common, batched: true });
    const perPage = makeVectorEnv({ ...common, batched: false, wrapEnv: (e: PooledEnv) => withDecisions(e, planner) });
    opened.push(batched, perPage);
    const a = withVectorDecisions(batched, planner);
    expect(a.singleObservationSpace).toEqual(perPage.singleObservationSpace);
    expect(vectors(await a.reset({ seed: 11 }))).toEqual(vectors(await perPage.reset({ seed: 11 })));
    const rng = new SeededRandom(3);
    let ends = 0;
    for (let t = 0; t < 150; t++) {
      const actions = [0, 1, 2].map(() => Math.floor(rng.next() * planner.numDecisions));
      const [x, y] = [await a.step(actions), await perPage.step(actions)];
      expect(vectors(x), `step ${t}`).toEqual(vectors(y));
      expect([Array.from(x.rewards), x.terminated, x.truncated], `step ${t}`).toEqual([Array.from(y.rewards), y.terminated, y.truncated]);
      ends += x.terminated.filter(Boolean).length + x.truncated.filter(Boolean).length;
    }
    expect(ends).toBeGreaterThanOrEqual(6);
  });
});
