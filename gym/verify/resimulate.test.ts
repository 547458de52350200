import { describe, expect, it } from 'vitest';
import { useBrowser } from '../testing/harness';
import { replayActions } from '../eval/run-episode';
import { verifyEpisode } from './resimulate';
import type { EpisodeRecord } from '../schema/records';

const gym = useBrowser();
const clone = (r: EpisodeRecord): EpisodeRecord => JSON.parse(JSON.stringify(r));

describe('verifyEpisode', () => {
  it('accepts a genuine episode and rejects forged ones with the first differing step', async () => {
    const env = await gym.env({ game: 'snake', seed: 4, observation: 'state', maxSteps: 30 });
    const genuine = await replayActions(env, 4, [0, 4, 3, 4, 4, 2, 4, 1, 4, 4, 0, 4, 3, 4, 2, 4]);
    const browser = await gym.browser();
    const ok = await verifyEpisode(genuine, browser);
    expect(ok.ok).toBe(true);

    const forgedScore = clone(genuine);
    forgedScore.steps[5].score += 10;
    forgedScore.totals.score += 10;
    const r1 = await verifyEpisode(forgedScore, browser);
    expect(r1).toMatchObject({ ok: false, firstMismatchStep: 5 });

    const tampered = clone(genuine);
    tampered.actions[2] = 1;
    tampered.steps[2].action = 1;
    const r2 = await verifyEpisode(tampered, browser);
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.firstMismatchStep).toBe(2);

    const wrongVersion = clone(genuine);
    wrongVersion.gameVersion = '0.9.0';
    const r3 = await verifyEpisode(wrongVersion, browser);
    expect(r3.ok).toBe(false);
    if (!r3.ok) expect(r3.reason).toMatch(/game version/);

    const wrongChecksum = clone(genuine);
    wrongChecksum.verifierChecksum = 'f'.repeat(64);
    const r4 = await verifyEpisode(wrongChecksum, browser);
    if (!r4.ok) expect(r4.reason).toMatch(/verifier checksum/);
    expect(r4.ok).toBe(false);

    const malformed = { ...clone(genuine), seed: 'x' };
    const r5 = await verifyEpisode(malformed, browser);
    expect(r5.ok).toBe(false);
    if (!r5.ok) expect(r5.reason).toMatch(/malformed.*seed/);
  });
});
