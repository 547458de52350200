/**
 * The ppo agent reads the pixels its policy was trained on: their size and colour, and as many
 * stacked frames, asked of the env by the evaluation itself (a real Chromium page).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getGame } from '../catalog';
import { evaluateGame } from '../eval/evaluate';
import { ActorCritic, type NetworkSpec } from '../nn/actor-critic';
import { CpuBackend } from '../nn/cpu-backend';
import { ObsEncoder } from '../ppo/obs-encoder';
import { PolicyAgent, savePolicy } from '../ppo/policy-agent';
import { useBrowser } from '../testing/harness';
import { pixelFrames } from './ppo-agent';

const { browser } = useBrowser();

async function policyFile(spec: NetworkSpec, obsShape: number[], layout: 'hwc' | 'chw'): Promise<string> {
  const agent = new PolicyAgent(new ActorCritic(new CpuBackend(), spec, 1), new ObsEncoder(obsShape, 1 / 255, layout));
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'ppo-agent-')), 'policy.agckpt');
  await savePolicy(file, agent);
  return file;
}

describe('ppo agent pixels', () => {
  it('reads the frames its observation shape was made of', () => {
    expect(pixelFrames([84, 84, 3], 'hwc')).toEqual({ pixels: { height: 84, width: 84, grayscale: false }, stack: 1 });
    expect(pixelFrames([64, 48, 1], 'hwc')).toEqual({ pixels: { height: 64, width: 48, grayscale: true }, stack: 1 });
    expect(pixelFrames([4, 84, 84], 'chw')).toEqual({ pixels: { height: 84, width: 84, grayscale: true }, stack: 4 });
    expect(() => pixelFrames([84, 84, 2], 'hwc')).toThrow(/2 channels/);
  });

  it('plays a policy over RGB frames and one over two stacked grayscale frames', { timeout: 120_000 }, async () => {
    const game = getGame('snake');
    const rgb = await policyFile(
      { kind: 'keypoints', inputShape: [3, 84, 84], numActions: 5, channels: [2, 2], kernels: [8, 3], strides: [4, 1], hidden: 4 },
      [84, 84, 3],
      'hwc',
    );
    const stacked = await policyFile({ kind: 'cnn', inputShape: [2, 84, 84], numActions: 5, channels: [2, 2, 2], hidden: 4 }, [2, 84, 84], 'chw');
    for (const checkpoint of [rgb, stacked]) {
      const result = await evaluateGame({ game, agent: 'ppo', agentOptions: { checkpoint }, seeds: [3, 4], maxSteps: 12, browser: await browser() });
      expect(result.episodes.map((e) => e.actions.length)).toEqual(result.episodes.map((e) => e.totals.length));
      expect(result.episodes.every((e) => e.totals.length > 0)).toBe(true);
    }
  });
});
