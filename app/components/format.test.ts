import { describe, expect, it } from 'vitest';
import type { RunSettingsColumns } from '../../drizzle/schema';
import { settingsSummary } from './format';

const base: RunSettingsColumns = {
  observation: ['vector'],
  actionSpace: 'discrete',
  stepBudget: 100,
  msPerStep: 100,
  official: true,
  harness: 'arcade-gym train (ppo)',
  model: null,
  codeVersion: null,
};

describe('the Settings column', () => {
  it('says game-specific beside the observation for an agent trained through a game’s own decisions', () => {
    expect(settingsSummary({ ...base, gameSpecific: true })).toBe('vector · game-specific · preset actions · official budget · arcade-gym train (ppo)');
    // Settings stored before the label existed read as generic.
    expect(settingsSummary(base)).toBe('vector · preset actions · official budget · arcade-gym train (ppo)');
    expect(settingsSummary({ ...base, gameSpecific: false })).not.toMatch(/game-specific/);
  });
});
