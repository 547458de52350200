import { describe, expect, it } from 'vitest';
import { EpisodeAccount } from '../env/episode-account';
import type { ArcadeGymError } from '../errors';
import { verifierStateProblems } from './verifier-state';

const settings = {
  identity: { gameId: 'g', gameVersion: '1.0.0', verifierChecksum: 'a'.repeat(64), runtimeVersion: '1.0.0' },
  seed: 0,
  stepBudget: 10,
  msPerStep: 100,
  shaping: { perStep: 0, terminal: 0 },
};

describe('verifier state', () => {
  it('names a missing field and lists the fields the state has', () => {
    expect(verifierStateProblems({ score: 3, over: true })).toEqual(['`gameOver` is missing (a boolean); the state has `score`, `over`']);
    expect(verifierStateProblems({ gameOver: false })).toEqual(['`score` is missing (a finite number); the state has `gameOver`']);
  });

  it('names a mistyped field with what it holds', () => {
    expect(verifierStateProblems({ score: '3', gameOver: 'no' })).toEqual([
      '`score` is a string, expected a finite number',
      '`gameOver` is a string, expected a boolean',
    ]);
    expect(verifierStateProblems({ score: 1, gameOver: false, lives: null })).toEqual(['`lives` is null, expected a finite number']);
    expect(verifierStateProblems([1])).toEqual([expect.stringMatching(/^the state is an array, not an object \{ score: number, gameOver: boolean/)]);
  });

  it('accepts any state with a score and gameOver, whatever else it holds', () => {
    expect(verifierStateProblems({ score: 0, gameOver: false, level: 2, board: [[1]], name: 'x' })).toEqual([]);
  });

  it('the episode accounting refuses an invalid reading at reset and after a step, naming the field', () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as ArcadeGymError;
      }
      throw new Error('expected an error');
    };
    const atReset = err(() => new EpisodeAccount(settings, { score: 0, over: false } as never));
    expect(atReset.code).toBe('INVALID_VERIFIER_STATE');
    expect(atReset.message).toMatch(/^g: the verifier's state at reset is invalid: `gameOver` is missing/);
    const ep = new EpisodeAccount(settings, { score: 0, gameOver: false });
    ep.record({ type: 'wait' }, { score: 1, gameOver: false }, 100);
    const later = err(() => ep.record({ type: 'wait' }, { score: '2', gameOver: false } as never, 200));
    expect(later.message).toMatch(/after step 2 is invalid: `score` is a string/);
    expect(ep.length).toBe(1);
  });
});
