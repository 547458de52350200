/**
 * The reward-shaping terms that read the verifier state (noOp, the stack potential): each fires
 * exactly when it should, in the wrappers (both autoreset modes) and in the env's episode records,
 * and a config without them leaves episode records byte-identical to what they were before the
 * terms existed.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EpisodeAccount } from '../../env/episode-account';
import { EnvOptions } from '../../env/options';
import { RewardShaping, canonicalJson, type VerifierState } from '../../schema/records';
import type { Env } from '../env';
import { boxSpace, discreteSpace } from '../spaces';
import { SyncVectorEnv } from '../sync-vector-env';
import { ShapeReward, VectorShapeReward, potentialOf, shapeReward, stackFeatures } from './reward-shaping';

/** Action 1 moves a counter (score +1), action 0 changes nothing; terminated at position `length`. */
function mover(length: number): Env<Float32Array, number, { state: VerifierState }, { state: VerifierState }> {
  let pos = 0;
  const state = (): VerifierState => ({ score: pos, gameOver: pos >= length, pos });
  return {
    observationSpace: boxSpace([1]),
    actionSpace: discreteSpace(2),
    reset: () => {
      pos = 0;
      return { observation: Float32Array.of(0), info: { state: state() } };
    },
    step: (a) => {
      const before = pos;
      pos += a;
      return { observation: Float32Array.of(pos), reward: pos - before, terminated: pos >= length, truncated: false, info: { state: state() } };
    },
    close() {},
  };
}

const board = (...rows: string[]) => rows.map((r) => [...r].map((c) => (c === '#' ? 1 : 0)));

describe('reward shaping that reads the verifier state', () => {
  it('noOp fires exactly when the state after the step equals the one before (key order aside)', () => {
    const c = RewardShaping.parse({ noOp: -2 });
    expect(shapeReward(0, false, c, { before: { score: 1, gameOver: false, b: [1, 2] }, after: { gameOver: false, b: [1, 2], score: 1 } })).toBe(-2);
    expect(shapeReward(0, false, c, { before: { score: 1, gameOver: false, b: [1, 2] }, after: { score: 1, gameOver: false, b: [2, 1] } })).toBe(0);
    expect(() => shapeReward(0, false, c)).toThrow(/need the verifier state/);
    // perStep and terminal still apply, first.
    expect(shapeReward(3, true, { perStep: -1, terminal: 5, noOp: -2 }, { before: { x: 1 }, after: { x: 1 } })).toBe(3 - 1 + 5 - 2);
  });

  it('the stack potential counts holes, aggregate height and bumpiness; γΦ(s′) − Φ(s) with Φ(terminal) = 0', () => {
    const b0 = board('....', '....', '....');
    const b1 = board('....', '.#..', '##.#'); // heights 1 2 0 1, no holes, bumpiness 1+2+1
    const b2 = board('.#..', '.#..', '#..#'); // heights 1 3 0 1, one hole (under column 1), bumpiness 2+3+1
    expect(stackFeatures(b1)).toEqual({ heights: [1, 2, 0, 1], holes: 0, aggregateHeight: 4, bumpiness: 4 });
    expect(stackFeatures(b2)).toMatchObject({ holes: 1, aggregateHeight: 5, bumpiness: 6 });
    const p = RewardShaping.parse({ potential: { kind: 'stack', holes: 1, height: 0.5, bumpiness: 0.25, gamma: 0.9 } }).potential!;
    expect(potentialOf(p, { board: b0 })).toBe(-0);
    expect(potentialOf(p, { board: b2 })).toBe(-(1 + 2.5 + 1.5));
    const c = { perStep: 0, terminal: 0, potential: p };
    expect(shapeReward(0, false, c, { before: { board: b1 }, after: { board: b2 } })).toBeCloseTo(0.9 * -5 - -3, 12);
    expect(shapeReward(0, false, c, { before: { board: b1 }, after: { board: b1 } })).toBeCloseTo(0.1 * 3, 12);
    expect(shapeReward(0, true, c, { before: { board: b2 }, after: { board: b1 } })).toBeCloseTo(5, 12);
    expect(() => shapeReward(0, false, c, { before: { score: 0 }, after: { score: 0 } })).toThrow(/needs the verifier state's board/);
  });

  it('the distance potential is −scale·Manhattan distance between two [x, y] fields; γΦ(s′) − Φ(s) with Φ(terminal) = 0', () => {
    const p = RewardShaping.parse({ potential: { kind: 'distance', from: 'head', to: 'food', scale: 0.5, gamma: 0.9 } }).potential!;
    expect(potentialOf(p, { head: [2, 3], food: [5, 1] })).toBe(-0.5 * 5);
    const c = { perStep: 0, terminal: 0, potential: p };
    // One step closer: 0.9·(−2) − (−2.5); one step away: 0.9·(−3) − (−2.5); dying: 0 − Φ(s).
    expect(shapeReward(0, false, c, { before: { head: [2, 3], food: [5, 1] }, after: { head: [3, 3], food: [5, 1] } })).toBeCloseTo(0.7, 12);
    expect(shapeReward(0, false, c, { before: { head: [2, 3], food: [5, 1] }, after: { head: [1, 3], food: [5, 1] } })).toBeCloseTo(-0.2, 12);
    expect(shapeReward(10, true, c, { before: { head: [2, 3], food: [5, 1] }, after: { head: [2, 4], food: [5, 1] } })).toBeCloseTo(12.5, 12);
    expect(() => potentialOf(p, { head: [1, 2], food: 'x' })).toThrow(/needs the verifier state's food as \[x, y\], got "x"/);
    expect(() => RewardShaping.parse({ potential: { kind: 'distance', from: 'head' } })).toThrow(/to/);
    expect(() => RewardShaping.parse({ potential: { kind: 'circle' } })).toThrow();
  });

  it('ShapeReward applies noOp to the steps whose action changed nothing', async () => {
    const env = new ShapeReward(mover(3), { noOp: -1 });
    await env.reset();
    const rewards = [];
    for (const a of [0, 1, 0, 0, 1]) rewards.push((await env.step(a)).reward);
    expect(rewards).toEqual([-1, 1, -1, -1, 1]);
  });

  for (const autoreset of ['next-step', 'same-step'] as const) {
    it(`VectorShapeReward applies noOp per sub-env, never across an episode boundary (${autoreset})`, async () => {
      const env = new VectorShapeReward(new SyncVectorEnv([() => mover(1), () => mover(5)], { autoreset }), { noOp: -1 });
      await env.reset({ seed: 0 });
      // Env 0 ends on its first move; its next episode starts at pos 0 again (a state equal to the
      // one before the move ended the episode), so a no-op right after the reset is penalised but
      // the reset itself is not.
      const steps = [
        [1, 0],
        [0, 1],
        [0, 0],
      ];
      const got = [];
      for (const a of steps) got.push(Array.from((await env.step(a)).rewards));
      if (autoreset === 'next-step')
        expect(got).toEqual([
          [1, -1],
          [0, 1],
          [-1, -1],
        ]);
      else
        expect(got).toEqual([
          [1, -1],
          [-1, 1],
          [-1, -1],
        ]);
    });
  }

  it('a config without the new fields leaves episode records byte-identical; with them, the record says so', () => {
    const identity = { gameId: 'g', gameVersion: '1.0.0', verifierChecksum: 'a'.repeat(64), runtimeVersion: '1' };
    const env = { viewport: { width: 10, height: 10 }, deviceScaleFactor: 1, browser: { name: 'chromium', version: '1' }, finalFrameHash: 'h' };
    const play = (shaping: RewardShaping) => {
      const acc = new EpisodeAccount({ identity, seed: 7, stepBudget: 3, msPerStep: 100, shaping }, { score: 0, gameOver: false, cells: [0] });
      acc.record({ type: 'wait' }, { score: 0, gameOver: false, cells: [0] }, 100);
      acc.record({ type: 'key', key: 'a' }, { score: 2, gameOver: false, cells: [1] }, 200);
      return acc.episodeRecord(env);
    };
    const plain = play(EnvOptions.parse({ game: 'g' }).shaping);
    expect(canonicalJson(plain.shaping)).toBe('{"perStep":0,"terminal":0}');
    // The sha256 of this record's canonical JSON as the code wrote it before noOp and potential existed.
    expect(createHash('sha256').update(canonicalJson(plain)).digest('hex')).toBe('3daf53a6dd2eb80a3fe3055221acc07e44870e745ea764d2d0cff00249e232e7');
    const shaped = play(RewardShaping.parse({ noOp: -1 }));
    expect(shaped.steps.map((s) => s.reward)).toEqual([-1, 2]);
    expect(shaped.shaping).toEqual({ perStep: 0, terminal: 0, noOp: -1 });
  });
});
