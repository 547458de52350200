import { afterAll, describe, expect, it } from 'vitest';
import { FRAME_HASH_UNAVAILABLE, makeEnv } from '../env/env';
import { replayActions } from '../eval/run-episode';
import { canonicalJson, EpisodeRecord } from '../schema/records';
import { BrowserPool } from './browser-pool';
import { ServiceError } from './errors';
import { crashPage, hangPage } from './faults';
import type { EpisodeOutcome } from './outcome';
import { PooledEnv } from './pooled-env';
import { isAlive } from './processes';

const pools: BrowserPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});
function pool(options: ConstructorParameters<typeof BrowserPool>[0]): BrowserPool {
  const p = new BrowserPool(options);
  pools.push(p);
  return p;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The record a fault-free run of `actions` from `seed` gives, on a page of `p`. */
async function twinRecord(p: BrowserPool, seed: number, actions: number[], maxSteps: number): Promise<EpisodeRecord> {
  const slot = await p.lease();
  const twin = makeEnv({ game: 'snake', observation: 'state', maxSteps }, slot.browser);
  try {
    return await replayActions(twin, seed, actions);
  } finally {
    await twin.close();
    slot.release();
  }
}

describe('PooledEnv: when recovery is impossible the episode ends as truncated, with its cause', () => {
  it('no rebuilds allowed: a crash truncates the episode on the last good step, record and cause kept', async () => {
    const p = pool({ maxBrowsers: 1, pagesPerBrowser: 2 });
    const outcomes: EpisodeOutcome[] = [];
    const env = await PooledEnv.open(
      p,
      { game: 'snake', observation: ['state', 'vector'], maxSteps: 20 },
      { maxRecoveries: 0, onEpisodeEnd: (o) => outcomes.push(o) },
    );
    await env.reset({ seed: 3 });
    const actions = [1, 2, 2, 3];
    let last;
    for (const a of actions) last = await env.step(a);
    await crashPage(env.env.currentPage!);
    await sleep(200);
    expect(env.state).toBe('crashed');
    const r = await env.step(0);
    expect(r.truncated).toBe(true);
    expect(r.terminated).toBe(false);
    expect(r.reward).toBe(0);
    expect(r.info.failure).toMatchObject({ code: 'PAGE_CRASHED', attempts: 0 });
    // The observation and state are those of the last step that worked.
    expect(r.info.state).toEqual(last!.info.state);
    expect(r.observation.vector).toEqual(last!.observation.vector);
    expect(outcomes).toHaveLength(1);
    const o = outcomes[0];
    expect(o.status).toBe('truncated');
    expect(o.cause?.code).toBe('PAGE_CRASHED');
    expect(EpisodeRecord.safeParse(o.record).success).toBe(true);
    expect(o.record.actions).toEqual(actions);
    expect(o.record.totals).toMatchObject({ length: 4, truncated: true, terminated: false });
    expect(o.record.finalFrameHash).toBe(FRAME_HASH_UNAVAILABLE);
    expect(r.info.episode).toEqual(o.record);
    // The episode is over; the session is not: a reset starts a new one on a fresh page.
    await expect(env.step(0)).rejects.toMatchObject({ code: 'EPISODE_ENDED' });
    await env.reset({ seed: 3 });
    const again = await env.step(1);
    expect(again.info.state).toEqual((await twinRecord(p, 3, [1], 20)).steps[0].info.state);
    await env.close();
  });

  it('a replay that does not match what was seen is refused (REPLAY_MISMATCH), not trusted', async () => {
    const p = pool({ maxBrowsers: 1, pagesPerBrowser: 2 });
    const outcomes: EpisodeOutcome[] = [];
    const env = await PooledEnv.open(p, { game: 'snake', observation: 'state', maxSteps: 20 }, { onEpisodeEnd: (o) => outcomes.push(o) });
    await env.reset({ seed: 5 });
    await env.step(4);
    // Tamper with the game behind the gym's back: what the next step shows no replay can give.
    await env.env.currentPage!.evaluate(() => {
      (window as unknown as { snake: { score: number } }).snake.score += 100;
    });
    const seen = await env.step(4);
    expect(seen.info.state.score).toBe(100);
    await crashPage(env.env.currentPage!);
    const r = await env.step(4);
    expect(r.truncated).toBe(true);
    expect(r.info.failure?.code).toBe('REPLAY_MISMATCH');
    expect(r.info.failure?.message).toMatch(/differs from the lost one at step 1/);
    expect(outcomes[0]).toMatchObject({ status: 'truncated', cause: { code: 'REPLAY_MISMATCH' } });
    expect(outcomes[0].record.totals.length).toBe(2);
    await env.close();
  });

  it('a hung step is stopped, the page rebuilt and the step retried; the record equals a fault-free run', async () => {
    const p = pool({ maxBrowsers: 1, pagesPerBrowser: 2 });
    const outcomes: EpisodeOutcome[] = [];
    const env = await PooledEnv.open(p, { game: 'snake', observation: 'state', maxSteps: 8, stepTimeoutMs: 1_500 }, { onEpisodeEnd: (o) => outcomes.push(o) });
    await env.reset({ seed: 11 });
    const actions = [1, 1, 2, 2, 3, 3, 0, 0];
    for (const [i, a] of actions.entries()) {
      if (i === 3) await hangPage(env.env.currentPage!);
      const r = await env.step(a);
      if (i === 3) expect(r.info.recovered).toMatchObject({ atStep: 3, cause: { code: 'STEP_TIMEOUT' }, attempts: 1, replayedSteps: 3 });
    }
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0].status).toBe('recovered');
    expect(canonicalJson(await twinRecord(p, 11, actions, 8))).toBe(canonicalJson(outcomes[0].record));
    await env.close();
  });

  it('closing mid-episode records it as truncated (CLOSED); every started episode is reported once', async () => {
    const p = pool({ maxBrowsers: 1, pagesPerBrowser: 2 });
    const outcomes: EpisodeOutcome[] = [];
    const env = await PooledEnv.open(p, { game: 'snake', observation: 'state', maxSteps: 50 }, { onEpisodeEnd: (o) => outcomes.push(o) });
    await env.reset({ seed: 1 });
    await env.step(1);
    await env.reset({ seed: 2 }); // abandons the first
    await env.step(1);
    await env.step(1);
    const closed = await env.close();
    expect(outcomes.map((o) => [o.status, o.cause?.code, o.record.totals.length])).toEqual([
      ['truncated', 'ABANDONED', 1],
      ['truncated', 'CLOSED', 2],
    ]);
    expect(closed).toBe(outcomes[1]);
    expect(env.state).toBe('closed');
    await expect(env.step(1)).rejects.toMatchObject({ code: 'ENV_CLOSED' });
  });

  it('one call at a time: a concurrent call is refused with SESSION_BUSY', async () => {
    const p = pool({ maxBrowsers: 1, pagesPerBrowser: 1 });
    const env = await PooledEnv.open(p, { game: 'snake', observation: 'state' });
    await env.reset({ seed: 1 });
    const first = env.step(1);
    await expect(env.step(1)).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    await first;
    await env.close();
  });
});

describe('BrowserPool: capacity, growth, shrinking, health', () => {
  it('grows a browser at a time as pages fill, refuses with BUSY at capacity, shrinks when idle', async () => {
    const p = pool({ maxBrowsers: 2, pagesPerBrowser: 2, idleBrowserMs: 0, healthIntervalMs: 0 });
    const a = await p.lease();
    const b = await p.lease();
    expect(p.stats().browsers).toHaveLength(1);
    const c = await p.lease();
    expect(p.stats().browsers).toHaveLength(2);
    const d = await p.lease();
    const busy = await p.lease().catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(ServiceError);
    expect(busy).toMatchObject({ code: 'BUSY' });
    expect((busy as ServiceError).retryAfterMs).toBeGreaterThan(0);
    for (const s of [a, b, c, d]) s.release();
    const pids = p.browserPids();
    await p.checkHealth();
    expect(p.stats().browsers).toHaveLength(0);
    expect(p.stats().browsersRetired).toBe(2);
    await sleep(300);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('a browser that stops answering is killed by the health check and its pages move to a new one', async () => {
    const p = pool({ maxBrowsers: 2, pagesPerBrowser: 4, healthIntervalMs: 0, healthTimeoutMs: 300 });
    const outcomes: EpisodeOutcome[] = [];
    const env = await PooledEnv.open(p, { game: 'snake', observation: 'state', maxSteps: 6, stepTimeoutMs: 1_500 }, { onEpisodeEnd: (o) => outcomes.push(o) });
    await env.reset({ seed: 9 });
    await env.step(1);
    const [pid] = p.browserPids();
    process.kill(pid, 'SIGSTOP'); // frozen, not dead: only a probe can tell
    try {
      await p.checkHealth();
      await p.checkHealth();
      expect(env.state).toBe('crashed');
      expect(p.stats().browsersLost).toBe(1);
    } finally {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Killed already, as intended.
      }
    }
    for (let i = 0; i < 5; i++) await env.step(1);
    expect(outcomes[0].status).toBe('recovered');
    expect(outcomes[0].recoveries[0].cause.code).toBe('PAGE_CRASHED');
    expect(p.browserPids()).not.toContain(pid);
    await sleep(300);
    expect(isAlive(pid)).toBe(false);
    await env.close();
  });

  it('close() ends every browser process, and later leases are refused', async () => {
    const p = pool({ maxBrowsers: 2, pagesPerBrowser: 1 });
    const envs = await Promise.all([1, 2].map(() => PooledEnv.open(p, { game: 'snake', observation: 'state' })));
    await Promise.all(envs.map((e) => e.reset({ seed: 1 })));
    const tree = p.processTree();
    expect(tree.length).toBeGreaterThan(4);
    await p.close();
    for (let i = 0; i < 20 && tree.some(isAlive); i++) await sleep(100);
    expect(tree.filter(isAlive)).toEqual([]);
    await expect(p.lease()).rejects.toMatchObject({ code: 'POOL_CLOSED' });
    await Promise.all(envs.map((e) => e.close()));
  });
});
