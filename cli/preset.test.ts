import { readdirSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePpoConfig } from '../gym/ppo';
import {
  observationShape,
  pixelNetwork,
  TrainCommandConfig,
  trainConfigProblem,
  loadTrainPreset,
  mergeLayers,
  parseTrainPreset,
  presetForObservation,
  resolvePpoInput,
} from '../gym/training-settings';
import { GAMES_DIR } from '../gym/paths';
import { gameSpecificActions, offersActionSet } from '../gym/actions';
import { getGame } from '../gym/catalog';

const LEARNING_SET = ['snake', 'g2048', 'tetris', 'path-of-light', 'platformer', 'wood-blocks-3d'];
const gamesWithPresets = readdirSync(GAMES_DIR).filter((d) => existsSync(path.join(GAMES_DIR, d, 'train.json')));

describe('training presets (games/<id>/train.json)', () => {
  it('every game of the learning set has one', () => {
    for (const id of LEARNING_SET) expect(gamesWithPresets, id).toContain(id);
  });

  it.each(gamesWithPresets)('%s: the preset parses, and resolves to a valid PPO config and training command', (id) => {
    const { preset, file } = loadTrainPreset(id);
    expect(file).toBe(path.join(GAMES_DIR, id, 'train.json'));
    const command = TrainCommandConfig.parse(mergeLayers({ game: id }, preset.training));
    // Its actions are one of the action sets its game's catalog entry lists (games/<id>/decisions.ts),
    // and it says it is game-specific exactly when they are the game's own.
    expect(offersActionSet(getGame(id), command.actions), JSON.stringify(command.actions)).toBe(true);
    expect(preset.gameSpecific ?? false, 'gameSpecific').toBe(gameSpecificActions(command.actions));
    const { input } = resolvePpoInput({
      preset,
      seed: 1,
      totalTimesteps: command.totalTimesteps,
      numEnvs: command.numEnvs,
      fallbackNumSteps: 128,
    });
    const ppo = parsePpoConfig(input);
    // What the preset names is what the run gets.
    for (const [k, v] of Object.entries(preset.ppo)) {
      if (typeof v === 'object' && v !== null) expect((ppo as Record<string, unknown>)[k]).toMatchObject(v);
      else expect((ppo as Record<string, unknown>)[k]).toEqual(v);
    }
    expect(ppo.totalTimesteps).toBe(command.totalTimesteps);
    expect(command.totalTimesteps).toBeLessThanOrEqual(300_000);
    if (preset.pixels) {
      // The pixel layer, as `--observation pixels` resolves it, is a valid run too.
      const px = presetForObservation(preset, 'pixels');
      const pc = TrainCommandConfig.parse(mergeLayers({ game: id }, px.training, { observation: 'pixels' }));
      expect(trainConfigProblem(pc)).toBeNull();
      expect(px.gameSpecific ?? false, 'pixels.gameSpecific').toBe(gameSpecificActions(pc.actions));
      const pixelPpo = parsePpoConfig(
        resolvePpoInput({
          preset: px,
          overrides: { network: pixelNetwork(pc) },
          seed: 1,
          totalTimesteps: pc.totalTimesteps,
          numEnvs: pc.numEnvs,
          fallbackNumSteps: 128,
        }).input,
      );
      expect(pixelPpo).toMatchObject(preset.pixels.ppo);
      expect(pc.totalTimesteps).toBeLessThanOrEqual(300_000);
    }
  });

  it('a game without a preset has none to load (it starts from the generic agent: gym/ppo/generic-agent.test.ts)', () => {
    expect(loadTrainPreset('no-such-game')).toEqual({ preset: { ppo: {}, training: {} }, file: null });
  });

  it('names the wrong field of a bad preset', () => {
    expect(() => parseTrainPreset({ ppo: { learningRate: -1 } }, 'games/x/train.json')).toThrow(/games\/x\/train.json is invalid[\s\S]*ppo\.learningRate/);
    expect(() => parseTrainPreset({ ppo: { normalizeReward: { enabled: 'yes' } } })).toThrow(/ppo\.normalizeReward\.enabled/);
    expect(() => parseTrainPreset({ ppo: { learningrate: 1e-3 } })).toThrow(/learningrate/);
    expect(() => parseTrainPreset({ ppo: { totalTimesteps: 10 } })).toThrow(/ppo\.totalTimesteps[\s\S]*training\.totalTimesteps/);
    expect(() => parseTrainPreset({ training: { numEnvs: 0 } })).toThrow(/training\.numEnvs/);
    expect(() => parseTrainPreset({ training: { evaluation: { mode: 'argmax' } } })).toThrow(/greedy or sample[\s\S]*at training\.evaluation\.mode/);
    expect(() => parseTrainPreset({ trainnig: {} })).toThrow(/trainnig/);
  });

  it('takes the action set PPO picks among (training.actions), and names a wrong one', () => {
    expect(TrainCommandConfig.parse({ game: 'snake' }).actions).toEqual({ kind: 'preset' });
    const tetris = TrainCommandConfig.parse(mergeLayers({ game: 'tetris' }, loadTrainPreset('tetris').preset.training));
    expect(tetris.actions).toEqual({ kind: 'placement', observation: 'afterstates' });
    // A flag layer without actions keeps the preset's.
    expect(TrainCommandConfig.parse(mergeLayers({ game: 'tetris' }, { actions: { kind: 'placement' } }, { numEnvs: 2 })).actions).toEqual({
      kind: 'placement',
    });
    expect(() => parseTrainPreset({ training: { actions: { kind: 'Macro' } } }, 'games/x/train.json')).toThrow(
      /games\/x\/train.json is invalid[\s\S]*actions.kind must be an action set name \(lowercase letters, digits, "-"\), got "Macro"[\s\S]*at training\.actions\.kind/,
    );
    expect(() => parseTrainPreset({ training: { actions: { kind: 'placement', cols: 5 } } })).toThrow(/"cols"[\s\S]*at training\.actions/);
    expect(() => parseTrainPreset({ training: { actions: { kind: 'placement', observation: 'board' } } })).toThrow(
      /actions.observation must be verifier or afterstates[\s\S]*at training\.actions\.observation/,
    );
    expect(() => parseTrainPreset({ training: { actions: 'placement' } })).toThrow(
      /actions must be an object such as \{"kind": "preset"\}[\s\S]*got "placement"/,
    );
  });

  it('says whether it is game-specific, as its actions make it, and names the field when it is wrong', () => {
    expect(() => parseTrainPreset({ training: { actions: { kind: 'placement' } } }, 'games/x/train.json')).toThrow(
      /games\/x\/train.json is invalid[\s\S]*must be true: training.actions \{"kind":"placement"\} are the game's own decisions[\s\S]*at gameSpecific/,
    );
    expect(() => parseTrainPreset({ gameSpecific: true, training: { actions: { kind: 'preset', observation: 'verifier' } } })).toThrow(
      /must be false or absent: the policy reads the verifier's vector[\s\S]*at gameSpecific/,
    );
    const afterstates = { actions: { kind: 'preset', observation: 'afterstates' } };
    expect(parseTrainPreset({ gameSpecific: true, training: afterstates }).gameSpecific).toBe(true);
    // Pixels keep the actions but not their afterstates: over the preset's keys that run is not game-specific.
    expect(parseTrainPreset({ gameSpecific: true, training: afterstates, pixels: {} }).pixels?.gameSpecific).toBeUndefined();
    expect(() => parseTrainPreset({ gameSpecific: true, training: afterstates, pixels: { gameSpecific: true } })).toThrow(/at pixels\.gameSpecific/);
    expect(() => parseTrainPreset({ gameSpecific: true, training: { ...afterstates, observation: 'pixels' } })).toThrow(/must be false or absent/);
    expect(() => parseTrainPreset({ gameSpecific: 'yes' })).toThrow(/gameSpecific/);
  });

  it('the shipped presets say what was measured (notes)', () => {
    for (const id of gamesWithPresets) {
      const json = JSON.parse(readFileSync(path.join(GAMES_DIR, id, 'train.json'), 'utf8')) as { notes?: string | string[] };
      expect([json.notes ?? ''].flat().join(' '), id).toMatch(/\S/);
    }
  });
});

describe('resolving a run from a preset', () => {
  const preset = parseTrainPreset({ ppo: { numSteps: 64, gamma: 0.97, normalizeReward: { enabled: true } }, training: { numEnvs: 8 } });

  it('layers defaults < preset < --config, merging nested objects', () => {
    const { input } = resolvePpoInput({
      preset,
      overrides: { gamma: 0.9, normalizeReward: { epsilon: 1e-6 } },
      seed: 3,
      totalTimesteps: 10_000,
      numEnvs: 8,
      fallbackNumSteps: 128,
    });
    const c = parsePpoConfig(input);
    expect(c).toMatchObject({ seed: 3, totalTimesteps: 10_000, numSteps: 64, gamma: 0.9 });
    expect(c.normalizeReward).toEqual({ enabled: true, gamma: null, epsilon: 1e-6 });
  });

  it('shortens a rollout that would not fit the budget, and says so', () => {
    const r = resolvePpoInput({ preset, seed: 1, totalTimesteps: 256, numEnvs: 8, fallbackNumSteps: 8 });
    expect(r.shortenedRollout).toBe(32);
    expect(parsePpoConfig(r.input).numSteps).toBe(32);
    expect(resolvePpoInput({ preset, seed: 1, totalTimesteps: 100_000, numEnvs: 8, fallbackNumSteps: 8 }).shortenedRollout).toBeNull();
  });

  it('a pixel layer applies when the run reads pixels (the flag or the preset), over the vector values', () => {
    const layered = parseTrainPreset({
      gameSpecific: true,
      ppo: { learningRate: 3e-3, gamma: 0.97, network: { hidden: [32] } },
      training: { numEnvs: 8, actions: { kind: 'preset', observation: 'afterstates' } },
      pixels: { ppo: { learningRate: 1e-3, network: { cnnChannels: [16, 32, 32] } }, training: { frameStack: 2, totalTimesteps: 60_000 } },
    });
    // Vectors (no flag, or --observation vector): the layer is not used.
    expect(presetForObservation(layered, undefined)).toBe(layered);
    expect(presetForObservation(layered, 'vector')).toBe(layered);
    const px = presetForObservation(layered, 'pixels');
    expect(px.ppo).toEqual({ learningRate: 1e-3, gamma: 0.97, network: { hidden: [32], cnnChannels: [16, 32, 32] } });
    const command = TrainCommandConfig.parse(mergeLayers({ game: 'snake' }, px.training));
    expect(command).toMatchObject({ observation: 'pixels', frameStack: 2, totalTimesteps: 60_000, numEnvs: 8 });
    // A preset whose own observation is pixels uses its layer without the flag.
    const pixelsByDefault = parseTrainPreset({ training: { observation: 'pixels' }, pixels: { training: { frameStack: 4 } } });
    expect(presetForObservation(pixelsByDefault, undefined).training).toMatchObject({ frameStack: 4 });
    // The layer is checked as strictly as the rest.
    expect(() => parseTrainPreset({ pixels: { ppo: { learningRate: 0 } } }, 'games/x/train.json')).toThrow(
      /games\/x\/train.json is invalid[\s\S]*pixels\.ppo\.learningRate/,
    );
    expect(() => parseTrainPreset({ pixels: { training: { frameStack: 99 } } })).toThrow(/pixels\.training\.frameStack/);
    expect(() => parseTrainPreset({ pixels: { network: {} } })).toThrow(/network/);
  });

  it('a pixel layer picks the keypoint network and RGB frames, and names a wrong value', () => {
    const px = presetForObservation(
      parseTrainPreset({
        pixels: { ppo: { network: { kind: 'keypoints', keypoints: { channels: [8, 8] } } }, training: { pixels: { grayscale: false } } },
      }),
      'pixels',
    );
    const command = TrainCommandConfig.parse(mergeLayers({ game: 'snake' }, px.training));
    expect(command.pixels).toEqual({ width: 84, height: 84, grayscale: false });
    expect(observationShape(command, 10)).toEqual([84, 84, 3]);
    expect(() => parseTrainPreset({ pixels: { training: { pixels: { grayscale: 'no' } } } })).toThrow(/pixels\.training\.pixels\.grayscale/);
    expect(() => parseTrainPreset({ pixels: { training: { pixels: { colour: true } } } })).toThrow(/"colour"[\s\S]*pixels\.training\.pixels/);
    expect(() => parseTrainPreset({ pixels: { ppo: { network: { kind: 'keypoint' } } } })).toThrow(/pixels\.ppo\.network\.kind/);
    expect(() => parseTrainPreset({ pixels: { ppo: { network: { keypoints: { channels: [8] } } } } })).toThrow(/pixels\.ppo\.network\.keypoints\.channels/);
    expect(() => parseTrainPreset({ pixels: { ppo: { network: { keypoints: { strides: [4, 0] } } } } })).toThrow(/pixels\.ppo\.network\.keypoints\.strides/);
  });

  it('stacked pixel frames read channel-first; stacking needs grayscale pixels', () => {
    const px = TrainCommandConfig.parse({ game: 'snake', observation: 'pixels', frameStack: 4 });
    expect(observationShape(px, 10)).toEqual([4, 84, 84]);
    expect(pixelNetwork(px)).toEqual({ obsScale: 1 / 255, pixelLayout: 'chw' });
    expect(trainConfigProblem(px)).toBeNull();
    expect(trainConfigProblem(TrainCommandConfig.parse({ game: 'snake', frameStack: 4 }))).toMatch(/needs --observation pixels/);
    expect(trainConfigProblem({ ...px, pixels: { ...px.pixels, grayscale: false } })).toMatch(/grayscale/);
  });

  it('flags win over the preset’s training choices', () => {
    const c = TrainCommandConfig.parse(
      mergeLayers({ game: 'snake' }, { numEnvs: 8, evaluation: { mode: 'sample' } }, { numEnvs: 2, evaluation: { episodes: 1, mode: undefined } }),
    );
    expect(c.numEnvs).toBe(2);
    expect(c.evaluation).toMatchObject({ episodes: 1, mode: 'sample' });
  });
});
