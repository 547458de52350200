import { afterAll, describe, expect, it } from 'vitest';
import { BrowserPool } from '../pool/browser-pool';
import { crashChannel, hangChannel } from '../pool/faults';
import type { EpisodeOutcome } from '../pool/outcome';
import { canonicalJson } from '../schema/records';
import { BatchedVectorEnv } from './batched-vector-env';
import type { BatchedVectorEnvOptions } from './options';

/**
 * A batch page holds several episodes: losing it must lose none of them. A crash or a hang
 * rebuilds every instance by replay and the step goes on, with the records of a fault-free run;
 * an instance that keeps failing is ended alone.
 */
const pool = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 16, healthIntervalMs: 0 });
const envs: BatchedVectorEnv[] = [];
afterAll(async () => {
  await Promise.all(envs.map((v) => v.close()));
  await pool.close();
});

const ACTIONS = [1, 2, 2, 3, 0, 1];
const N = 3;

function batched(opts: Partial<BatchedVectorEnvOptions>, ended: Map<number, EpisodeOutcome>): BatchedVectorEnv {
  const v = new BatchedVectorEnv({
    game: 'snake',
    numEnvs: N,
    seed: 20,
    observation: 'state',
    maxSteps: ACTIONS.length,
    instancesPerPage: N,
    pool,
    onEpisode: (i, o) => ended.set(i, o),
    ...opts,
  });
  envs.push(v);
  return v;
}

/** Makes instance `slot`'s runtime misbehave on its next step (its page-mates are untouched). */
async function breakInstance(v: BatchedVectorEnv, slot: number, how: 'hang' | 'throw'): Promise<void> {
  await v.pageOf(0)!.evaluateInHost(
    ([slot, how]) => {
      const frame = document.querySelectorAll('iframe')[slot as number];
      const api = (frame.contentWindow as unknown as { __arcade: { step: () => unknown } }).__arcade;
      api.step = () => {
        if (how === 'throw') throw new Error('injected fault');
        for (;;) {
          // Spin until the gym stops this script.
        }
      };
    },
    [slot, how] as const,
  );
}

async function run(v: BatchedVectorEnv, fault: (k: number) => Promise<unknown>) {
  const steps = [];
  await v.reset();
  for (const [k, a] of ACTIONS.entries()) {
    await fault(k);
    steps.push(await v.step(Array(N).fill(a)));
  }
  return steps;
}

describe('BatchedVectorEnv faults', () => {
  it('a crashed page rebuilds all its instances by replay, losing nothing', async () => {
    const ended = { clean: new Map<number, EpisodeOutcome>(), faulty: new Map<number, EpisodeOutcome>() };
    const clean = batched({}, ended.clean);
    const faulty = batched({}, ended.faulty);
    const c = await run(clean, async () => undefined);
    const f = await run(faulty, async (k) => k === 2 && expect(await crashChannel(faulty.pageOf(0)!.channel)).toBe(true));
    for (const [k, step] of f.entries()) {
      expect(step.observations.map((o) => o.state)).toEqual(c[k].observations.map((o) => o.state));
      expect([...step.rewards]).toEqual([...c[k].rewards]);
    }
    expect(f[2].infos.map((i) => i.recovered?.cause.code)).toEqual(['PAGE_CRASHED', 'PAGE_CRASHED', 'PAGE_CRASHED']);
    for (let i = 0; i < N; i++) {
      expect(ended.faulty.get(i)?.status).toBe('recovered');
      expect(canonicalJson(ended.faulty.get(i)!.record)).toBe(canonicalJson(ended.clean.get(i)!.record));
    }
  }, 120_000);

  it('a hung page is stopped and rebuilt by replay, losing nothing', async () => {
    const ended = { clean: new Map<number, EpisodeOutcome>(), faulty: new Map<number, EpisodeOutcome>() };
    const clean = batched({}, ended.clean);
    const faulty = batched({ stepTimeoutMs: 2_000 }, ended.faulty);
    const c = await run(clean, async () => undefined);
    const f = await run(faulty, async (k) => {
      if (k !== 3) return;
      // Sent on the channel the steps take: the next step queues behind the spin.
      expect(hangChannel(faulty.pageOf(0)!.channel)).toBe(true);
    });
    for (const [k, step] of f.entries()) expect(step.observations.map((o) => o.state)).toEqual(c[k].observations.map((o) => o.state));
    expect(f[3].infos.map((i) => i.recovered?.cause.code)).toEqual(['STEP_TIMEOUT', 'STEP_TIMEOUT', 'STEP_TIMEOUT']);
    for (let i = 0; i < N; i++) expect(canonicalJson(ended.faulty.get(i)!.record)).toBe(canonicalJson(ended.clean.get(i)!.record));
  }, 120_000);

  it('an instance that hangs is the one charged: with no recoveries left it alone is ended, the others go on', async () => {
    const ended = { clean: new Map<number, EpisodeOutcome>(), faulty: new Map<number, EpisodeOutcome>() };
    const clean = batched({}, ended.clean);
    const faulty = batched({ stepTimeoutMs: 2_000, maxRecoveries: 0 }, ended.faulty);
    const c = await run(clean, async () => undefined);
    const f = await run(faulty, (k) => (k === 2 ? breakInstance(faulty, 1, 'hang') : Promise.resolve()));
    expect(f[2].truncated).toEqual([false, true, false]);
    expect(f[2].infos[1].failure?.code).toBe('STEP_TIMEOUT');
    expect(ended.faulty.get(1)?.status).toBe('truncated');
    // The others were rebuilt on a fresh page and finished their episodes exactly as the clean run.
    expect(f[2].infos[0].recovered?.cause.code).toBe('STEP_TIMEOUT');
    for (const i of [0, 2]) expect(canonicalJson(ended.faulty.get(i)!.record)).toBe(canonicalJson(ended.clean.get(i)!.record));
    // next-step autoreset: the ended instance starts a new episode while the others step.
    expect(f[3].infos[1].autoreset).toBe(true);
    expect(f[3].observations[0].state).toEqual(c[3].observations[0].state);
  }, 120_000);

  it("an instance's exception rebuilds it alone, in place", async () => {
    const ended = { clean: new Map<number, EpisodeOutcome>(), faulty: new Map<number, EpisodeOutcome>(), hopeless: new Map<number, EpisodeOutcome>() };
    const clean = batched({}, ended.clean);
    const faulty = batched({}, ended.faulty);
    const hopeless = batched({ maxRecoveries: 0 }, ended.hopeless);
    const c = await run(clean, async () => undefined);
    const pageBefore = () => faulty.pageOf(0);
    let page: unknown = null;
    const f = await run(faulty, async (k) => {
      if (k === 2) {
        page = pageBefore();
        await breakInstance(faulty, 2, 'throw');
      }
    });
    expect(faulty.pageOf(0)).toBe(page);
    expect(f[2].infos[2].recovered?.cause).toMatchObject({ code: 'PAGE_ERROR', message: expect.stringContaining('injected fault') });
    expect(f[2].infos[0].recovered).toBeUndefined();
    for (const [k, step] of f.entries()) expect(step.observations.map((o) => o.state)).toEqual(c[k].observations.map((o) => o.state));
    expect(canonicalJson(ended.faulty.get(2)!.record)).toBe(canonicalJson(ended.clean.get(2)!.record));

    const h = await run(hopeless, (k) => (k === 2 ? breakInstance(hopeless, 2, 'throw') : Promise.resolve()));
    expect(h[2].truncated).toEqual([false, false, true]);
    expect(h[2].infos[2].failure?.code).toBe('PAGE_ERROR');
    expect(canonicalJson(ended.hopeless.get(0)!.record)).toBe(canonicalJson(ended.clean.get(0)!.record));
  }, 120_000);
});
