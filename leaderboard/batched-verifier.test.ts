import { describe, expect, it } from 'vitest';
import { replayActions } from '../gym/eval';
import { canonicalJson, type EpisodeRecord } from '../gym/schema';
import { useBrowser } from '../gym/testing';
import { batchedVerifier, verifyAbortable } from './verifier-browser';

const gym = useBrowser();

describe('batchedVerifier', () => {
  it('answers each call as verifyAbortable does, replaying the calls of one turn together', async () => {
    const records: EpisodeRecord[] = [];
    for (const seed of [1, 2, 3]) {
      const env = await gym.env({ game: 'snake', seed, observation: 'state', maxSteps: 20 });
      records.push(
        await replayActions(
          env,
          seed,
          Array.from({ length: 20 }, (_, i) => (i * seed) % 5),
        ),
      );
      await env.close();
    }
    const forged: EpisodeRecord = JSON.parse(JSON.stringify(records[2]));
    forged.steps[4].reward += 1;
    const browser = await gym.browser();
    const verify = batchedVerifier(browser);
    const signal = new AbortController().signal;
    const inputs = [...records, forged];
    const together = await Promise.all(inputs.map((r) => verify(r, signal)));
    const alone = [];
    for (const r of inputs) alone.push(await verifyAbortable(r, browser, signal));
    expect(together.map((r) => r.ok)).toEqual([true, true, true, false]);
    expect(canonicalJson(together)).toBe(canonicalJson(alone));
  }, 120_000);
});
