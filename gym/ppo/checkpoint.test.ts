/**
 * Checkpoints: the byte format round-trips, and a run stopped at update k and resumed from
 * its checkpoint (with a fresh env and network) ends with exactly the parameters and Adam
 * state of an uninterrupted run with the same seed (CPU backend: bit-identical).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CartPoleVectorEnv, cartPoleTask } from '../cartpole';
import { CpuBackend } from '../nn/cpu-backend';
import { CHECKPOINT_MAGIC, decodeCheckpoint, encodeCheckpoint, type Checkpoint } from './checkpoint';
import { loadCheckpoint } from './checkpoint-files';
import { ppoPresets, type PpoConfigInput } from './config';
import { PolicyAgent, loadPolicy } from './policy-agent';
import { train, type TrainResult } from './train';
import type { AutoresetMode } from '../core/vector-env';
import { runDirectoryWriter } from './run-directory';

function roundTrip(ck: Checkpoint): Checkpoint {
  const { blobs: _entries, ...header } = ck.header;
  void _entries;
  return decodeCheckpoint(encodeCheckpoint(header, Object.fromEntries(ck.blobs)));
}

async function finalState(result: TrainResult) {
  const ck = await result.checkpoint();
  return { params: ck.blobs.get('params'), m: ck.blobs.get('adam.m'), v: ck.blobs.get('adam.v'), header: ck.header };
}

async function checkResume(config: PpoConfigInput, mode: AutoresetMode, stopAfter: number) {
  const task = () => ({ ...cartPoleTask(4, { autoreset: mode }), config, backend: new CpuBackend() });
  const full = await train(task());
  const first = await train({
    ...task(),
    stopWhen: (m) => m.phase === 'ppo' && m.update === stopAfter,
  });
  expect(first.updates).toBe(stopAfter);
  const saved = roundTrip(await first.checkpoint());
  expect(saved.header.progress?.update).toBe(stopAfter);
  const resumed = await train({ ...task(), resumeFrom: saved });
  expect(resumed.updates).toBe(full.updates);
  expect(resumed.globalStep).toBe(full.globalStep);
  // The resumed run logged only the remaining updates, with the same numbers as the full run.
  expect(resumed.metrics.map((m) => m.update)).toEqual(full.metrics.filter((m) => m.update > stopAfter).map((m) => m.update));
  expect(resumed.metrics.map((m) => m.policyLoss)).toEqual(full.metrics.filter((m) => m.update > stopAfter).map((m) => m.policyLoss));
  const a = await finalState(full);
  const b = await finalState(resumed);
  expect(Array.from(b.params ?? [])).toEqual(Array.from(a.params ?? []));
  expect(Array.from(b.m ?? [])).toEqual(Array.from(a.m ?? []));
  expect(Array.from(b.v ?? [])).toEqual(Array.from(a.v ?? []));
  expect(b.header.optimizer?.step).toBe(a.header.optimizer?.step);
  expect(b.header.collector).toEqual(a.header.collector);
  expect(b.header.normalization).toEqual(a.header.normalization);
}

describe('checkpoints', { timeout: 60_000 }, () => {
  it('encode/decode round-trips header and float32 blobs (little-endian, magic, alignment)', () => {
    const blobs = { params: Float32Array.of(1.5, -2, 3.25, Math.fround(0.1)), empty: new Float32Array(0), 'adam.m': Float32Array.of(7) };
    const bytes = encodeCheckpoint(
      {
        format: 'arcade-gym-checkpoint',
        version: 1,
        kind: 'policy',
        algorithm: 'ppo',
        createdAt: 'now',
        config: { seed: 3 },
        network: { kind: 'mlp', obsSize: 1, numActions: 2, hidden: [], activation: 'tanh' },
        obsShape: [1],
        numActions: 2,
        paramLayout: [],
      },
      blobs,
    );
    expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe(CHECKPOINT_MAGIC);
    const view = new DataView(bytes.buffer);
    const headerLength = view.getUint32(12, true);
    const dataStart = Math.ceil((16 + headerLength) / 8) * 8;
    expect(view.getFloat32(dataStart, true)).toBe(1.5); // first value of the first blob
    const back = decodeCheckpoint(bytes);
    expect(back.header.config).toEqual({ seed: 3 });
    expect(Array.from(back.blobs.get('params') ?? [])).toEqual(Array.from(blobs.params));
    expect(back.blobs.get('empty')?.length).toBe(0);
    expect(Array.from(back.blobs.get('adam.m') ?? [])).toEqual([7]);
    expect(() => decodeCheckpoint(new Uint8Array(32))).toThrow(/not an arcade-gym checkpoint/);
  });

  const small: PpoConfigInput = { seed: 5, numSteps: 32, totalTimesteps: 4 * 128, numMinibatches: 2, updateEpochs: 2, learningRate: 1e-3 };

  it('resuming at update 2 of 4 gives the same parameters and Adam state as an uninterrupted run', async () => {
    await checkResume(small, 'same-step', 2);
  });

  it('…also with next-step autoreset and the UI-TARS-2 preset (value pretraining, length-adaptive GAE)', async () => {
    const config: PpoConfigInput = { ...small, ...ppoPresets.uiTars2, valuePretrain: { enabled: true, maxIterations: 2, minExplainedVariance: 0.99 } };
    await checkResume(config, 'next-step', 1);
  });

  it('…also with observation and reward normalisation, whose statistics the checkpoint carries', async () => {
    await checkResume({ ...small, normalizeObservation: { enabled: true }, normalizeReward: { enabled: true } }, 'same-step', 2);
  });

  it('a policy trained with observation normalisation keeps the statistics and acts on raw observations', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ppo-norm-'));
    try {
      const result = await train({
        ...cartPoleTask(4, { autoreset: 'same-step' }),
        config: { ...small, normalizeObservation: { enabled: true } },
        backend: new CpuBackend(),
        writer: runDirectoryWriter(dir),
      });
      const stats = (await result.checkpoint()).header.normalization?.observation;
      expect(stats?.rms.count).toBeGreaterThan(4 * 128);
      expect(result.agent.observationNormalization).toEqual(stats);
      const agent = await loadPolicy(path.join(dir, 'policy.agckpt'), new CpuBackend());
      expect(agent.observationNormalization).toEqual(stats);
      const obs = (await new CartPoleVectorEnv(3).reset({ seed: 5 })).observations;
      expect(await agent.actBatch(obs)).toEqual(await result.agent.actBatch(obs));
      expect(await agent.probabilities(obs[0])).toEqual(await result.agent.probabilities(obs[0]));
      // The statistics matter: without them the same network gives other probabilities.
      const raw = new PolicyAgent(agent.net, agent.encoder);
      expect(await raw.probabilities(obs[0])).not.toEqual(await agent.probabilities(obs[0]));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes metrics.jsonl, checkpoint.agckpt and policy.agckpt; the policy file reproduces the agent', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ppo-ckpt-'));
    try {
      const result = await train({
        ...cartPoleTask(4, { autoreset: 'same-step' }),
        config: { ...small, checkpointEvery: 1 },
        backend: new CpuBackend(),
        writer: runDirectoryWriter(dir),
      });
      const lines = (await readFile(path.join(dir, 'metrics.jsonl'), 'utf8')).trim().split('\n');
      expect(lines.length).toBe(result.updates);
      const last = JSON.parse(lines[lines.length - 1]);
      for (const key of [
        'policyLoss',
        'valueLoss',
        'entropy',
        'approxKl',
        'clipFracLow',
        'clipFracHigh',
        'explainedVariance',
        'valuePearson',
        'episodeReturnMean',
        'episodeLengthMean',
        'stepsPerSec',
      ]) {
        expect(last, key).toHaveProperty(key);
      }
      const ck = await loadCheckpoint(path.join(dir, 'checkpoint.agckpt'));
      expect(ck.header.kind).toBe('training');
      expect(ck.header.progress?.update).toBe(result.updates);
      const agent = await loadPolicy(path.join(dir, 'policy.agckpt'), new CpuBackend());
      const env = new CartPoleVectorEnv(3);
      const obs = (await env.reset({ seed: 99 })).observations;
      expect(await agent.actBatch(obs)).toEqual(await result.agent.actBatch(obs));
      expect(await agent.probabilities(obs[0])).toEqual(await result.agent.probabilities(obs[0]));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('checkpoints written before gym/core (fixtures from the earlier trainer)', { timeout: 60_000 }, () => {
  const fixture = (name: string) => path.join(import.meta.dirname, 'fixtures', name);

  it('a legacy policy file loads and acts exactly as it did', async () => {
    const agent = await loadPolicy(fixture('legacy-policy.agckpt'), new CpuBackend());
    // Recorded by the earlier code when it wrote the fixture.
    const obs = [-0.02395341917872429, 0.030482277274131775, 0.004087153356522322, 0.01902434229850769];
    expect(await agent.probabilities(obs)).toEqual([0.49977881804794666, 0.5002211819520535]);
    expect(agent.observationNormalization).toBeNull();
  });

  it('a legacy training checkpoint resumes: its reward shaping config is migrated, its old env state is set aside', async () => {
    const ck = await loadCheckpoint(fixture('legacy-training.agckpt'));
    expect(ck.header.config.rewardShaping).toEqual({ enabled: true, stepPenalty: 0.01, terminationBonus: -1, outcomeBonus: 0 });
    expect(ck.header.normalization).toBeUndefined();
    const resumed = await train({
      ...cartPoleTask(2),
      backend: new CpuBackend(),
      resumeFrom: ck,
      config: { ...ck.header.config, totalTimesteps: 128 },
    });
    expect(resumed.config.rewardShaping).toEqual({ perStep: -0.01, terminal: -1 });
    expect(resumed.metrics.map((m) => m.update)).toEqual([3, 4]);
    expect((await resumed.checkpoint()).header.optimizer?.step).toBe(ck.header.optimizer!.step + 2 * 2);
  });
});
