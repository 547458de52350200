import { describe, expect, it } from 'vitest';
import { clipRange, parseGrpoConfig, parsePpoConfig, ppoPresets } from './config';

describe('PPO config', () => {
  it('fills CleanRL defaults and the UI-TARS-2 switches', () => {
    const c = parsePpoConfig({});
    expect(c).toMatchObject({
      learningRate: 1e-3,
      annealLr: false,
      numSteps: 128,
      gamma: 0.99,
      updateEpochs: 4,
      numMinibatches: 4,
      clipCoef: 0.2,
      entCoef: 0.01,
    });
    expect(c.clipHigher).toEqual({ enabled: true, epsLow: 0.2, epsHigh: 0.28 });
    expect(c.decoupledGae).toEqual({ enabled: true, lambdaPolicy: 0.95, lambdaCritic: 1.0 });
    expect(c.lengthAdaptiveGae).toEqual({ enabled: false, alpha: 0.05, minLambda: 0.9 });
    expect(c.valuePretrain.enabled).toBe(false);
    expect(clipRange(c)).toEqual({ epsLow: 0.2, epsHigh: 0.28 });
    expect(clipRange(parsePpoConfig({ clipHigher: { enabled: false }, clipCoef: 0.1 }))).toEqual({ epsLow: 0.1, epsHigh: 0.1 });
  });

  it('keeps nested defaults when only some nested fields are given', () => {
    expect(parsePpoConfig({ clipHigher: { epsHigh: 0.3 } }).clipHigher).toEqual({ enabled: true, epsLow: 0.2, epsHigh: 0.3 });
  });

  it('rejects unknown keys and out-of-range values with a readable message', () => {
    expect(() => parsePpoConfig({ learningrate: 1 })).toThrow(/invalid PPO config[\s\S]*learningrate/);
    expect(() => parsePpoConfig({ gamma: 1.5 })).toThrow(/gamma/);
    expect(() => parsePpoConfig({ decoupledGae: { lambdaCritic: -1 } })).toThrow(/lambdaCritic/);
  });

  it('names the reward shaping, normalisation and resume-seed settings: shaping and observation normalisation off, reward normalisation on', () => {
    const c = parsePpoConfig({});
    expect(c.rewardShaping).toEqual({ perStep: 0, terminal: 0 });
    expect(c.normalizeObservation).toEqual({ enabled: false, epsilon: 1e-8 });
    expect(c.normalizeReward).toEqual({ enabled: true, gamma: null, epsilon: 1e-8 });
    expect(c.resumeResetSeedStride).toBe(7919);
    expect(() => parsePpoConfig({ rewardShaping: { perStep: -0.1, bonus: 1 } })).toThrow(/bonus/);
  });

  it('reads the reward shaping of configs written before it became one config', () => {
    const legacy = { rewardShaping: { enabled: true, stepPenalty: 0.1, terminationBonus: -2, outcomeBonus: 3 } };
    expect(parsePpoConfig(legacy).rewardShaping).toEqual({ perStep: -0.1, terminal: -2 });
    expect(parseGrpoConfig(legacy).rewardShaping).toEqual({ perStep: -0.1, terminal: -2 });
    expect(parsePpoConfig({ rewardShaping: { enabled: false, stepPenalty: 5 } }).rewardShaping).toEqual({ perStep: 0, terminal: 0 });
  });

  it('presets parse', () => {
    expect(parsePpoConfig(ppoPresets.cleanrl).clipHigher.enabled).toBe(false);
    const ui = parsePpoConfig(ppoPresets.uiTars2);
    expect(ui.lengthAdaptiveGae.enabled && ui.valuePretrain.enabled && ui.decoupledGae.enabled).toBe(true);
    expect(parseGrpoConfig({ groupSize: 4 }).groupSize).toBe(4);
    expect(() => parseGrpoConfig({ groupSize: 1 })).toThrow(/groupSize/);
  });
});
