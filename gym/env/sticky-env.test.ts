import { afterAll, describe, expect, it } from 'vitest';
import { BatchedVectorEnv } from '../batch/batched-vector-env';
import { replayActions } from '../eval/run-episode';
import { BrowserPool } from '../pool/browser-pool';
import { SeededRandom } from '../random/seeded-random';
import { canonicalJson, type EpisodeRecord } from '../schema/records';
import { useBrowser } from '../testing/harness';
import { verifyEpisode } from '../verify/resimulate';
import { verifyEpisodes } from '../verify/verify-many';
import { episodeStream, repeatsAt } from './sticky-actions';

/**
 * Sticky actions on real pages: the game receives the previous action where the stream says,
 * the record says which steps, and its actions replay the same record byte for byte in the
 * single env, the batched env and the server's verification, which refuses a record that
 * claims other actions on repeating steps.
 */
const gym = useBrowser();
const pool = new BrowserPool({ maxBrowsers: 1, pagesPerBrowser: 4, healthIntervalMs: 0 });
afterAll(() => pool.close());

const GAME = 'snake';
const STEPS = 80;
const sticky = { stickyActions: 0.25, stickySeed: 1234 };
const clone = (r: EpisodeRecord): EpisodeRecord => JSON.parse(JSON.stringify(r));

function offeredActions(seed: number, n: number): number[] {
  const rng = new SeededRandom(seed ^ 0x5717);
  return Array.from({ length: STEPS }, () => rng.nextUint32() % n);
}

async function play(seed: number, actions: readonly number[], options: object): Promise<EpisodeRecord> {
  const env = await gym.env({ game: GAME, seed, observation: 'state', maxSteps: STEPS, ...options });
  try {
    return await replayActions(env, seed, actions);
  } finally {
    await env.close();
  }
}

describe('sticky actions', () => {
  it('repeat the previous action where the stream says, and the record says where', async () => {
    const env = await gym.env({ game: GAME, seed: 3, observation: 'state', maxSteps: STEPS, ...sticky });
    const offered = offeredActions(3, env.manifest.preset.length);
    await env.close();
    const record = await play(3, offered, sticky);
    expect(record.stickyActions).toEqual({ p: 0.25, seed: 1234 });
    const stream = episodeStream(record.stickyActions!, 3);
    const repeated = record.steps.map((s) => s.repeated === true);
    expect(repeated).toEqual(record.steps.map((_, i) => repeatsAt(stream, i)));
    expect(repeated.filter(Boolean).length).toBeGreaterThan(3);
    for (const [i, s] of record.steps.entries()) expect(s.action).toEqual(s.repeated ? record.actions[i - 1] : offered[i]);
    // Some repeat really replaced a different offered action, so the option changed what the game got.
    expect(record.actions.some((a, i) => a !== offered[i])).toBe(true);
    // Without sticky actions the same offers give another episode, and a record with no sticky fields.
    const plain = await play(3, offered, {});
    expect(plain.stickyActions).toBeUndefined();
    expect(plain.steps.some((s) => 'repeated' in s)).toBe(false);
    expect(plain.actions.slice(0, record.actions.length)).not.toEqual(record.actions);
  }, 120_000);

  it('replay byte-exact: from the executed actions, in a batched env, and in verification; a forged repeat is refused', async () => {
    const n = (await gym.env({ game: GAME, seed: 4, observation: 'state' })).manifest.preset.length;
    const offered = [offeredActions(4, n), offeredActions(5, n)];
    const records = [await play(4, offered[0], sticky), await play(5, offered[1], sticky)];
    // The executed actions offered again give the same record.
    expect(canonicalJson(await play(4, records[0].actions as number[], sticky))).toBe(canonicalJson(records[0]));

    const v = new BatchedVectorEnv({ game: GAME, numEnvs: 2, seed: 4, observation: 'state', maxSteps: STEPS, instancesPerPage: 2, pool, ...sticky });
    const batched: EpisodeRecord[] = [];
    try {
      await v.reset({ seed: 4 });
      for (let t = 0; t < STEPS && batched.filter(Boolean).length < 2; t++) {
        const r = await v.step([offered[0][t] ?? 0, offered[1][t] ?? 0]);
        r.infos.forEach((info, i) => {
          if (info.episode && !batched[i]) batched[i] = info.episode;
        });
      }
    } finally {
      await v.close();
    }
    expect(batched.map(canonicalJson)).toEqual(records.map(canonicalJson));

    // A record claiming, on a repeating step, an action other than the previous one.
    const forged = clone(records[0]);
    const at = forged.steps.findIndex((s) => s.repeated);
    expect(at).toBeGreaterThan(0);
    const other = ((forged.actions[at] as number) + 1) % n;
    forged.actions[at] = other;
    forged.steps[at].action = other;
    const browser = await gym.browser();
    const many = await verifyEpisodes([...records, forged], browser, { instancesPerPage: 3 });
    expect(many.map((r) => (r.ok ? true : r.reason))).toEqual([true, true, expect.stringMatching(new RegExp(`^step ${at} differs`))]);
    expect(many[2]).toMatchObject({ ok: false, firstMismatchStep: at });
    const single = await verifyEpisode(records[0], browser);
    expect(single.ok).toBe(true);
    if (single.ok) expect(canonicalJson(single.replayed)).toBe(canonicalJson(records[0]));
    expect(await verifyEpisode(forged, browser)).toMatchObject({ ok: false, firstMismatchStep: at });
  }, 180_000);
});
