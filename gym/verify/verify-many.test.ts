import { describe, expect, it } from 'vitest';
import { ownPagesOpen } from '../browser/own-page';
import { replayActions } from '../eval/run-episode';
import { SeededRandom } from '../random/seeded-random';
import { canonicalJson, type EpisodeRecord } from '../schema/records';
import { useBrowser } from '../testing/harness';
import { verifyEpisode } from './resimulate';
import { verifyEpisodes } from './verify-many';

const gym = useBrowser();
const clone = (r: EpisodeRecord): EpisodeRecord => JSON.parse(JSON.stringify(r));

async function genuine(game: string, seed: number, steps: number): Promise<EpisodeRecord> {
  const env = await gym.env({ game, seed, observation: 'state', maxSteps: steps });
  const rng = new SeededRandom(seed);
  const actions = Array.from({ length: steps }, () => rng.nextUint32() % env.manifest.preset.length);
  const record = await replayActions(env, seed, actions);
  await env.close();
  return record;
}

describe('verifyEpisodes (batched re-simulation)', () => {
  it('gives, for every record, what verifyEpisode gives for it alone', async () => {
    const records = [await genuine('snake', 1, 40), await genuine('snake', 2, 40), await genuine('mole-bop', 3, 30), await genuine('snake', 5, 40)];
    const forged = clone(records[1]);
    forged.steps[7].score += 1;
    forged.totals.score += 1;
    const goesOn = clone(records[3]);
    goesOn.totals.length += 1;
    const inputs: unknown[] = [...records, forged, goesOn, { not: 'a record' }];
    const browser = await gym.browser();
    const batched = await verifyEpisodes(inputs, browser, { instancesPerPage: 3 });
    const single = [];
    for (const input of inputs) single.push(await verifyEpisode(input, browser));
    expect(batched.map((r) => r.ok)).toEqual([true, true, true, true, false, false, false]);
    expect(batched[4]).toMatchObject({ ok: false, firstMismatchStep: 7 });
    expect(canonicalJson(batched)).toBe(canonicalJson(single));
  }, 120_000);

  it('keeps its pages for the next call, whose episodes load fresh documents in them', async () => {
    const browser = await gym.browser();
    const records = [await genuine('snake', 11, 30), await genuine('snake', 12, 30), await genuine('snake', 13, 30)];
    const forged = clone(records[0]);
    forged.steps[4].reward += 1;
    forged.totals.reward += 1;
    const first = [...records, forged];
    const single = [];
    for (const input of first) single.push(await verifyEpisode(input, browser));
    expect(canonicalJson(await verifyEpisodes(first, browser, { instancesPerPage: 2 }))).toBe(canonicalJson(single));
    // Its two pages stay open (verifyEpisode's contexts are closed with their envs). Batch pages are
    // the gym's own, which Playwright does not list: the browser's targets show them.
    const pageTargets = async () => {
      const cdp = await browser.newBrowserCDPSession();
      try {
        const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; targetId: string }[] };
        return targetInfos
          .filter((t) => t.type === 'page')
          .map((t) => t.targetId)
          .sort();
      } finally {
        await cdp.detach();
      }
    };
    const kept = await pageTargets();
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(ownPagesOpen(browser)).toBe(kept.length);
    // The same pages, each slot now holding another episode than before: every verdict is still the episode's own.
    const again = await verifyEpisodes([...first].reverse(), browser, { instancesPerPage: 2 });
    expect(await pageTargets()).toEqual(kept);
    expect(canonicalJson(again)).toBe(canonicalJson([...single].reverse()));
    expect(again.map((r) => r.ok)).toEqual([false, true, true, true]);
  }, 120_000);

  it('answers "stopped" once its signal aborts', async () => {
    const record = await genuine('snake', 9, 30);
    const controller = new AbortController();
    controller.abort();
    const [r] = await verifyEpisodes([record], await gym.browser(), { signal: controller.signal, instancesPerPage: 2 });
    expect(r).toMatchObject({ ok: false, reason: expect.stringContaining('stopped') });
  }, 60_000);
});
