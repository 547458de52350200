import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../paths';
import { resolveRunSettings } from './settings';

const snakePreset = JSON.parse(readFileSync(path.join(ROOT, 'games/snake/train.json'), 'utf8'));

describe('resolveRunSettings (the page resolves its choices as arcade-gym train resolves its flags)', () => {
  it('starts from the preset, then the choices, then --config-style overrides', () => {
    const s = resolveRunSettings('snake', snakePreset, 'games/snake/train.json', { totalTimesteps: 2048, numEnvs: 2, seed: 9, config: { gamma: 0.9 } });
    expect(s.command).toMatchObject({ game: 'snake', numEnvs: 2, seed: 9, totalTimesteps: 2048, autoreset: 'same-step', observation: 'vector' });
    expect(s.ppo).toMatchObject({ seed: 9, totalTimesteps: 2048, learningRate: snakePreset.ppo.learningRate, numSteps: snakePreset.ppo.numSteps, gamma: 0.9 });
    expect(s.preset).toBe('games/snake/train.json');
  });

  it('names what is wrong in bad choices', () => {
    expect(() => resolveRunSettings('snake', snakePreset, 'games/snake/train.json', { numEnvs: 0 })).toThrow(/numEnvs/);
    expect(() => resolveRunSettings('snake', snakePreset, 'games/snake/train.json', { config: { learningRat: 1 } })).toThrow(/learningRat/);
    expect(() => resolveRunSettings('snake', { ppo: { seed: 3 } }, 'games/x/train.json', {})).toThrow(/games\/x\/train.json is invalid/);
  });
});
