import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trainCommand } from '../../cli/commands/train';
import { launchBrowser } from '../browser/launch';
import { cartPoleTask } from '../cartpole';
import { runDirectoryWriter, train } from '../ppo';
import { decodeCheckpoint } from '../ppo/checkpoint';
import { openTrainerPage, WEBGPU_ARGS } from './test-page';
import type * as Trainer from './index';

type TrainerWindow = Window & { ArcadeTrainer: typeof Trainer };

/** Both runs see this wall clock (a checkpoint's createdAt is the only wall-clock field). */
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

let browser: Browser;
let dir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  dir = await mkdtemp(path.join(os.tmpdir(), 'browser-train-'));
});
afterAll(async () => {
  vi.useRealTimers();
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A browser run's files, as hex of their bytes (crossing page.evaluate as strings). */
interface PageFiles {
  checkpoint: string;
  policy: string;
  metrics: string;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('a browser run and a Node run on the CPU backend give the same checkpoint bytes', () => {
  it('CartPole: the page trainer and gym/ppo train() in Node', async () => {
    const ppo = { seed: 3, totalTimesteps: 4 * 32 * 3, numSteps: 32, learningRate: 1e-3 };
    const page = await openTrainerPage(browser, { fixedNow: NOW });
    const files = await page.evaluate(async (ppo) => {
      const T = (window as unknown as TrainerWindow).ArcadeTrainer;
      const run = await T.BrowserTrainingRun.start({
        settings: { command: { game: 'cartpole', numEnvs: 4, seed: 3, autoreset: 'same-step', observation: 'vector' }, preset: null, agent: 'preset', ppo },
        game: null,
        backend: 'cpu',
      });
      await run.done;
      const toHex = (b: Uint8Array | null) => Array.from(b ?? [], (x) => x.toString(16).padStart(2, '0')).join('');
      return { checkpoint: toHex(run.writer.checkpointFile), policy: toHex(run.writer.policyFile), metrics: run.writer.metricsJsonl() } satisfies PageFiles;
    }, ppo);
    await page.context().close();

    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const out = path.join(dir, 'cartpole');
    try {
      await train({
        ...cartPoleTask(4, { seed: 3, autoreset: 'same-step' }),
        backend: 'cpu',
        config: ppo,
        writer: await runDirectoryWriter(out),
      });
    } finally {
      vi.useRealTimers();
    }
    expect(files.checkpoint.length).toBeGreaterThan(1000);
    expect(files.checkpoint).toBe(hex(await readFile(path.join(out, 'checkpoint.agckpt'))));
    expect(files.policy).toBe(hex(await readFile(path.join(out, 'policy.agckpt'))));
    // Three updates after the config line.
    expect(files.metrics.trim().split('\n')).toHaveLength(4);
  });

  it('Snake (its afterstate preset): the page trainer on game frames and `arcade-gym train` on the gym’s pages', async () => {
    const choices = { totalTimesteps: 512, numEnvs: 2, seed: 5 };
    const preset = JSON.parse(await readFile(path.join(process.cwd(), 'games/snake/train.json'), 'utf8'));
    const page = await openTrainerPage(browser, { fixedNow: NOW });
    const files = await page.evaluate(
      async ({ choices, preset }) => {
        const T = (window as unknown as TrainerWindow).ArcadeTrainer;
        const catalog = await (await fetch('/games/catalog.json')).json();
        const game = catalog.games.find((g: { manifest: { id: string } }) => g.manifest.id === 'snake');
        const settings = T.resolveRunSettings('snake', preset, 'games/snake/train.json', choices);
        const run = await T.BrowserTrainingRun.start({ settings, game, backend: 'cpu', container: document.getElementById('frames')! });
        await run.done;
        const toHex = (b: Uint8Array | null) => Array.from(b ?? [], (x) => x.toString(16).padStart(2, '0')).join('');
        return { checkpoint: toHex(run.writer.checkpointFile), policy: toHex(run.writer.policyFile), metrics: run.writer.metricsJsonl() } satisfies PageFiles;
      },
      { choices, preset },
    );
    await page.context().close();

    const out = path.join(dir, 'snake');
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    try {
      await trainCommand.run({
        values: { game: 'snake', backend: 'cpu', steps: '512', envs: '2', seed: '5', out },
        positionals: [],
      });
    } finally {
      vi.useRealTimers();
    }
    expect(files.policy).toBe(hex(await readFile(path.join(out, 'policy.agckpt'))));
    // The training checkpoints agree in every blob and header field but the envs' resume state: the
    // CLI steps Snake's one-key decisions on batched pages, which keep none (env: null), the page its frames.
    const inPage = decodeCheckpoint(Buffer.from(files.checkpoint, 'hex'));
    const cli = decodeCheckpoint(await readFile(path.join(out, 'checkpoint.agckpt')));
    expect(cli.header.env).toBeNull();
    expect({ ...inPage.header, env: null }).toEqual(cli.header);
    expect([...inPage.blobs.keys()]).toEqual([...cli.blobs.keys()]);
    for (const [name, data] of cli.blobs) expect(hex(new Uint8Array(inPage.blobs.get(name)!.buffer)), name).toBe(hex(new Uint8Array(data.buffer)));
    // The config line is the CLI's, but for the backend flag (the CLI was told cpu, the page chose it itself).
    const cliConfig = JSON.parse((await readFile(path.join(out, 'metrics.jsonl'), 'utf8')).split('\n')[0]);
    const pageConfig = JSON.parse(files.metrics.split('\n')[0]);
    expect({ ...pageConfig, command: { ...pageConfig.command, backend: 'cpu' } }).toEqual(cliConfig);
  });
});

describe('WebGPU in the page (SwiftShader here) matches the CPU backend to float32 rounding', () => {
  it('CartPole, one update: the same parameters but for rounding', async () => {
    const gpuBrowser = await launchBrowser({ extraArgs: WEBGPU_ARGS });
    try {
      const page = await openTrainerPage(gpuBrowser);
      const out = await page.evaluate(async () => {
        const T = (window as unknown as TrainerWindow).ArcadeTrainer;
        const files: Record<string, number[]> = {};
        const kinds: string[] = [];
        for (const backend of ['webgpu', 'cpu'] as const) {
          const run = await T.BrowserTrainingRun.start({
            settings: {
              command: { game: 'cartpole', numEnvs: 4, seed: 9, autoreset: 'same-step', observation: 'vector' },
              preset: null,
              agent: 'preset',
              ppo: { seed: 9, totalTimesteps: 4 * 32, numSteps: 32 },
            },
            game: null,
            backend,
          });
          const r = await run.done;
          kinds.push(`${r.backend.kind}: ${r.backend.info}`);
          files[backend] = Array.from(run.writer.policyFile!);
        }
        return { files, kinds };
      });
      expect(out.kinds[0]).toMatch(/^webgpu: /);
      expect(out.kinds[1]).toMatch(/^cpu: /);
      const gpu = decodeCheckpoint(Uint8Array.from(out.files.webgpu)).blobs.get('params')!;
      const cpu = decodeCheckpoint(Uint8Array.from(out.files.cpu)).blobs.get('params')!;
      expect(gpu.length).toBe(cpu.length);
      let maxDiff = 0;
      for (let i = 0; i < gpu.length; i++) {
        maxDiff = Math.max(maxDiff, Math.abs(gpu[i] - cpu[i]));
      }
      // Adam moves each parameter by up to lr (1e-3) per step; rounding differences stay far below that.
      expect(maxDiff).toBeLessThan(1e-4);
    } finally {
      await gpuBrowser.close();
    }
  });
});
