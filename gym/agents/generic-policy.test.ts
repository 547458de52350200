import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getGame } from '../catalog';
import { evaluateGame } from '../eval';
import { mean } from '../stats';
import { useBrowser } from '../testing';
import { GENERIC_POLICY_AGENT, GENERIC_POLICY_INFO_FILE, genericPolicyFile, genericPolicyTraining, trainedPolicy } from './generic-policy';
import { availableBaselines, createAgent, gameLacks } from './registry';

describe('the ppo-generic baseline', () => {
  const gym = useBrowser();

  it('plays snake from its committed policy, reading the vector, and beats random on the same seeds', async () => {
    const agent = await createAgent(GENERIC_POLICY_AGENT, 'snake');
    expect(agent.name).toBe(GENERIC_POLICY_AGENT);
    expect(agent.observation).toEqual(['vector']);
    const seeds = [8_000_000, 8_000_001, 8_000_002, 8_000_003];
    const browser = await gym.browser();
    const [ppo, random] = await Promise.all(
      [GENERIC_POLICY_AGENT, 'random'].map((a) => evaluateGame({ game: getGame('snake'), agent: a, seeds, browser, observation: ['state'] })),
    );
    const score = (r: typeof ppo) => mean(r.episodes.map((e) => e.totals.score));
    expect(score(ppo)).toBeGreaterThan(score(random) + 5);
  }, 120_000);

  it("says how the policy was trained: the generic config, not game-specific, checked against the file's sha256", async () => {
    const { training, learningCurve } = await genericPolicyTraining('snake');
    expect(training).toMatchObject({ algorithm: 'ppo', gameSpecific: false, config: { generic: true, game: 'snake' } });
    expect(training.checkpointSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(learningCurve.at(-1)?.step).toBe(training.totalTimesteps);
  });

  it('refuses a description of another checkpoint, and a checkpoint without one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'generic-policy-'));
    const checkpoint = path.join(dir, 'ppo-generic.agckpt');
    copyFileSync(genericPolicyFile('snake')!, checkpoint);
    await expect(trainedPolicy(checkpoint)).rejects.toThrow(`needs its ${GENERIC_POLICY_INFO_FILE}`);
    const info = JSON.parse(readFileSync(path.join(path.dirname(genericPolicyFile('snake')!), GENERIC_POLICY_INFO_FILE), 'utf8'));
    writeFileSync(path.join(dir, GENERIC_POLICY_INFO_FILE), JSON.stringify({ ...info, checkpointSha256: '0'.repeat(64) }));
    await expect(trainedPolicy(checkpoint)).rejects.toThrow(/describes another checkpoint/);
    writeFileSync(path.join(dir, GENERIC_POLICY_INFO_FILE), JSON.stringify({ ...info, totalTimesteps: -1 }));
    await expect(trainedPolicy(checkpoint)).rejects.toThrow(/is invalid: .* at totalTimesteps/);
  });

  it('is left out, with a note, for a game that has no policy', async () => {
    // A third-party game registered with add-game has none until someone trains one.
    const id = 'a-game-nobody-trained';
    expect(gameLacks(GENERIC_POLICY_AGENT, id)).toBe('no generic policy');
    expect(availableBaselines(id, ['random', GENERIC_POLICY_AGENT]).baselines).toEqual(['random']);
    await expect(createAgent(GENERIC_POLICY_AGENT, id)).rejects.toThrow(`Game ${id} has no generic policy`);
  });
});
