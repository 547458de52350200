import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { preferSwiftShaderWhenUnset } from '../gym';
import { cliRunner } from './testing';

// The CLI runs below inherit this process's environment: on a machine without a GPU the WebGPU
// runs then get Debian chromium's SwiftShader, as the gym/nn suites do, without the caller having to set it.
preferSwiftShaderWhenUnset();
/** metrics.jsonl of a run directory, one object per line (the config line first). */
const readMetrics = (out: string) =>
  readFileSync(path.join(out, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const cli = cliRunner({ timeoutMs: 240_000 });

describe('arcade-gym train', () => {
  it('trains PPO through the gym, writes metrics and checkpoints, and evaluates against the baselines', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'arcade-train-'));
    const { stdout } = await cli([
      'train',
      '--game',
      'snake',
      '--steps',
      '256',
      '--envs',
      '2',
      '--backend',
      'cpu',
      '--seed',
      '3',
      '--eval-episodes',
      '1',
      '--out',
      out,
    ]);
    const metrics = readMetrics(out);
    expect(metrics.length).toBeGreaterThanOrEqual(2);
    expect(metrics.at(-1).globalStep).toBe(256);
    // The game's preset (games/snake/train.json) under the flags; the resolved settings head the metrics file too.
    const config = JSON.parse(readFileSync(path.join(out, 'config.json'), 'utf8'));
    expect(config.preset).toBe('games/snake/train.json');
    expect(config.command).toMatchObject({ numEnvs: 2, totalTimesteps: 256, seed: 3 });
    expect(config.command.actions).toEqual({ kind: 'preset', observation: 'afterstates' });
    // Snake's preset observes its keys through the game's own afterstates: a game-specific run, and it says so.
    expect(config.gameSpecific).toBe(true);
    expect(stdout).toMatch(/^game-specific: actions \{"kind":"preset","observation":"afterstates"\} are snake's own decisions/m);
    expect(config.ppo).toMatchObject({ numSteps: 64, gamma: 0.97, learningRate: 3e-3, annealLr: false, normalizeReward: { enabled: true } });
    expect(metrics[0]).toEqual({ kind: 'config', ...config });
    for (const key of ['policyLoss', 'valueLoss', 'entropy', 'approxKl', 'explainedVariance']) expect(metrics.at(-1)).toHaveProperty(key);
    expect(existsSync(path.join(out, 'policy.agckpt'))).toBe(true);
    expect(existsSync(path.join(out, 'checkpoint.agckpt'))).toBe(true);
    expect(stdout).toMatch(/^random\s+1\s/m);
    expect(stdout).toMatch(/^scripted\s+1\s/m);
    expect(stdout).toMatch(/^ppo\s+1\s/m);

    const evalOut = path.join(out, 'eval.jsonl');
    await cli(['eval', '--game', 'snake', '--agent', 'ppo', '--checkpoint', path.join(out, 'policy.agckpt'), '--episodes', '1', '--out', evalOut]);
    const record = JSON.parse(readFileSync(evalOut, 'utf8').trim());
    expect(record.gameId).toBe('snake');
    expect(record.actions.length).toBe(record.totals.length);
  });

  it('refuses bad arguments with a clear message', async () => {
    await expect(cli(['train', '--game', 'snake', '--algo', 'dqn', '--out', '/tmp/x'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/--algo must be ppo or grpo/),
    });
    await expect(cli(['eval', '--game', 'snake', '--agent', 'ppo', '--episodes', '1'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/needs --checkpoint/),
    });
    await expect(cli(['eval', '--game', 'snake', '--agent', 'ppo', '--checkpoint', 'x.agckpt', '--mode', 'argmax'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/--mode must be greedy or sample, got "argmax"/),
    });
    await expect(cli(['eval', '--game', 'snake', '--agent', 'random', '--mode', 'sample'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/--mode is the ppo agent's/),
    });
  });
});

describe('arcade-gym train on pixels', () => {
  it("trains Snake's pixel preset (keypoints over RGB frames), and `eval` plays its policy on the same frames", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'arcade-train-px-'));
    const config = path.join(out, 'ppo.json');
    writeFileSync(config, JSON.stringify({ network: { keypoints: { channels: [4, 4] }, cnnHidden: 32 }, numMinibatches: 2, updateEpochs: 1 }));
    const args = ['--observation', 'pixels', '--steps', '64', '--envs', '2', '--backend', 'cpu', '--config', config, '--eval-episodes', '1', '--out', out];
    const { stdout } = await cli(['train', '--game', 'snake', ...args]);
    const metrics = readMetrics(out);
    expect(metrics.at(-1).globalStep).toBe(64);
    expect(stdout).toMatch(/^ppo\s+1\s/m);
    // Snake's preset observes afterstates, a vector observation: over pixels the policy reads pixels, and the config says so.
    expect(metrics[0].command.actions).toEqual({ kind: 'preset' });
    expect(metrics[0].gameSpecific).toBe(false);
    expect(metrics[0].command.pixels).toEqual({ width: 84, height: 84, grayscale: false });
    expect(metrics[0].ppo.network).toMatchObject({ kind: 'keypoints', keypoints: { channels: [4, 4], kernels: [8, 3], strides: [4, 1] }, cnnHidden: 32 });

    const evalOut = path.join(out, 'eval.jsonl');
    const policy = path.join(out, 'policy.agckpt');
    await cli(['eval', '--game', 'snake', '--agent', 'ppo', '--checkpoint', policy, '--mode', 'sample', '--episodes', '1', '--out', evalOut]);
    expect(JSON.parse(readFileSync(evalOut, 'utf8').trim()).gameId).toBe('snake');
  });

  it('trains the Nature-CNN on 84×84 grayscale frames without a preset', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'arcade-train-cnn-'));
    const config = path.join(out, 'ppo.json');
    writeFileSync(config, JSON.stringify({ network: { cnnChannels: [4, 8, 8], cnnHidden: 32 }, numMinibatches: 2, updateEpochs: 1 }));
    const args = ['--observation', 'pixels', '--steps', '64', '--envs', '2', '--backend', 'cpu', '--config', config, '--eval-episodes', '1', '--out', out];
    const { stdout } = await cli(['train', '--game', 'snake', '--no-preset', ...args]);
    const metrics = readMetrics(out);
    expect(metrics.at(-1).globalStep).toBe(64);
    expect(stdout).toMatch(/^ppo\s+1\s/m);
    expect(metrics[0].command.pixels).toEqual({ width: 84, height: 84, grayscale: true });
    expect(metrics[0].ppo.network).toMatchObject({ kind: 'auto', cnnChannels: [4, 8, 8] });
  });
});

describe('checkpoints across backends', () => {
  it('a policy trained on WebGPU plays through `eval --agent ppo --checkpoint` on both backends, the same episode', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'arcade-train-gpu-'));
    const { stdout } = await cli(['train', '--game', 'snake', '--steps', '128', '--envs', '2', '--backend', 'webgpu', '--eval-episodes', '1', '--out', out]);
    expect(stdout).toMatch(/^ppo\s+1\s/m);
    const policy = path.join(out, 'policy.agckpt');
    const play = async (backend: string) => {
      const file = path.join(out, `eval-${backend}.jsonl`);
      await cli(['eval', '--game', 'snake', '--agent', 'ppo', '--checkpoint', policy, '--backend', backend, '--episodes', '1', '--seed', '11', '--out', file]);
      return JSON.parse(readFileSync(file, 'utf8').trim()) as { actions: unknown[]; totals: { length: number }; browser: unknown };
    };
    const [cpu, webgpu] = [await play('cpu'), await play('webgpu')];
    expect(cpu.actions.length).toBe(cpu.totals.length);
    // Greedy actions from the same parameters: float32 rounding on the GPU does not change an argmax here.
    expect(webgpu.actions).toEqual(cpu.actions);
    await expect(cli(['eval', '--game', 'snake', '--agent', 'random', '--backend', 'cpu', '--episodes', '1'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/--backend is the ppo agent's/),
    });
  });
});
