import { describe, expect, it } from 'vitest';
import { firstMismatch, replayMismatch } from './replay-check';

describe('the replay check shared by pooled and batched recovery', () => {
  const seen = [
    { state: { score: 0 }, virtualTimeMs: 0 },
    { state: { score: 1 }, virtualTimeMs: 16 },
  ];

  it('trusts a replay that reads as the lost episode did, key order aside', () => {
    expect(
      firstMismatch(seen, [
        { virtualTimeMs: 0, state: { score: 0 } },
        { state: { score: 1 }, virtualTimeMs: 16 },
      ]),
    ).toBeNull();
  });

  it('names the first step that differs, or where one of them stops', () => {
    expect(firstMismatch(seen, [seen[0], { state: { score: 2 }, virtualTimeMs: 16 }])).toBe(1);
    expect(firstMismatch(seen, [{ state: { score: 0 }, virtualTimeMs: 1 }, seen[1]])).toBe(0);
    expect(firstMismatch(seen, seen.slice(0, 1))).toBe(1);
    expect(firstMismatch(seen.slice(0, 1), seen)).toBe(1);
  });

  it('says where and, when known, what the episode was lost to', () => {
    expect(replayMismatch(3)).toEqual({ code: 'REPLAY_MISMATCH', message: expect.stringMatching(/at step 3 \(is the game deterministic\?\)$/) });
    expect(replayMismatch(3, 'PAGE_CRASHED').message).toMatch(/; it was lost to PAGE_CRASHED$/);
  });
});
