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

  it('replays episodes longer than one batch of page calls, and says where a forgery or an early end is', async () => {
    const browser = await gym.browser();
    // 2048 over 100 moves: several replay batches.
    const env = await gym.env({ game: 'g2048', seed: 9, observation: 'state', maxSteps: 100 });
    const moves = Array.from({ length: 100 }, (_, i) => (i * 7 + (i >> 3)) % 4);
    const long = await replayActions(env, 9, moves);
    expect(long.steps.length).toBe(100);
    expect((await verifyEpisode(long, browser)).ok).toBe(true);
    const late = clone(long);
    late.steps[90].reward += 4;
    late.totals.reward += 4;
    expect(await verifyEpisode(late, browser)).toMatchObject({ ok: false, firstMismatchStep: 90 });

    // A snake left to run into the wall: the game is over before the record says.
    const snake = await gym.env({ game: 'snake', seed: 2, observation: 'state', maxSteps: 40 });
    const crash = await replayActions(
      snake,
      2,
      Array.from({ length: 40 }, () => 4),
    );
    expect(crash.totals.terminated).toBe(true);
    const end = crash.steps.length - 1;
    const goesOn = clone(crash);
    goesOn.actions.push(4);
    goesOn.steps.push({ ...clone(crash).steps[end], step: end + 1, terminated: false });
    const r = await verifyEpisode(goesOn, browser);
    expect(r).toMatchObject({ ok: false, firstMismatchStep: end + 1 });
    if (!r.ok) expect(r.reason).toMatch(new RegExp(`ends at step ${end} in the replay`));

    // An action the game's preset does not have: refused at its step, before any replay.
    const unknown = clone(long);
    unknown.actions[70] = 9;
    unknown.steps[70].action = 9;
    const u = await verifyEpisode(unknown, browser);
    expect(u).toMatchObject({ ok: false, firstMismatchStep: 70 });
    if (!u.ok) expect(u.reason).toMatch(/step 70: Action index 9 is out of range for g2048/);
  });
});
