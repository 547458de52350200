/**
 * A checkpoint round trip over macro actions: `arcade-gym train --game tetris` (whose preset trains
 * over placement decisions, observing their afterstates with the scorer network) records the action
 * set in config.json, metrics.jsonl and both checkpoints, stops at the budget in primitive steps, and
 * `eval --agent ppo --checkpoint` plays the policy through the same placements and observations: its
 * episode record is exactly the actions the training wrapper makes for the policy's decisions.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { macroPlannerFor } from '../gym/actions';
import { getGame } from '../gym/catalog';
import { DecisionObservation, MacroAction } from '../gym/core';
import { loadCheckpoint, loadPolicy } from '../gym/ppo';
import { useBrowser } from '../gym/testing';
import { cliRunner } from './testing';

const cli = cliRunner({ timeoutMs: 300_000 });
const gym = useBrowser();

describe('arcade-gym train over Tetris placements', { timeout: 420_000 }, () => {
  it('records the action set, and eval --agent ppo plays the checkpoint with the same placements', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'arcade-train-placement-'));
    await cli(['train', '--game', 'tetris', '--steps', '64', '--envs', '2', '--backend', 'cpu', '--seed', '3', '--eval-episodes', '1', '--out', out]);
    const actions = { kind: 'placement', observation: 'afterstates' };
    const config = JSON.parse(readFileSync(path.join(out, 'config.json'), 'utf8'));
    expect(config.command.actions).toEqual(actions);
    expect(config.gameSpecific).toBe(true);
    const metrics = readFileSync(path.join(out, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(metrics[0].command.actions).toEqual(actions);
    expect(metrics[0].gameSpecific).toBe(true);
    // 32 decisions × 2 envs take at least 64 actions (each ends with a drop): the 64-step budget stopped the run after one update.
    expect(metrics.length).toBe(2);
    for (const file of ['policy.agckpt', 'checkpoint.agckpt']) {
      const { header } = await loadCheckpoint(path.join(out, file));
      expect(header.actions, file).toEqual(actions);
      expect(header.numActions, file).toBe(40);
      expect(header.obsShape, file).toEqual([40, 8]);
      expect(header.network.kind, file).toBe('scorer');
    }

    const evalOut = path.join(out, 'eval.jsonl');
    const policyFile = path.join(out, 'policy.agckpt');
    await cli(['eval', '--game', 'tetris', '--agent', 'ppo', '--checkpoint', policyFile, '--episodes', '1', '--seed', '17', '--out', evalOut]);
    const record = JSON.parse(readFileSync(evalOut, 'utf8').trim());
    expect(record.actions.length).toBe(record.totals.length);

    // The same greedy policy picking decisions for the training wrapper, from the same seed.
    const policy = await loadPolicy(policyFile, 'cpu');
    const planner = (await macroPlannerFor({ kind: 'placement', observation: 'afterstates' }, getGame('tetris')))!;
    const env = new DecisionObservation(
      new MacroAction(await gym.env({ game: 'tetris', seed: record.seed, observation: ['state', 'vector'], maxSteps: record.stepBudget }), planner),
      planner,
    );
    let { observation } = await env.reset({ seed: record.seed });
    const keys: unknown[] = [];
    for (;;) {
      const r = await env.step(await policy.act(observation.vector!));
      keys.push(...r.info.macro.actions);
      observation = r.observation;
      if (r.terminated || r.truncated) break;
    }
    expect(record.actions).toEqual(keys);
  });
});
