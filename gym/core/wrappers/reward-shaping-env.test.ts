/**
 * The no-op penalty on a real game: 2048 in headless Chromium, where a move into a wall leaves
 * the board as it was. The env's own shaping (its episode records) and the trainer's wrapper agree,
 * and a record with the new field verifies by re-simulation.
 */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../testing/harness';
import { canonicalJson } from '../../schema/records';
import { verifyEpisode } from '../../verify/resimulate';
import { ShapeReward } from './reward-shaping';

const gym = useBrowser();
const UP = 0;
const MAX_STEPS = 12;

describe('noOp shaping on 2048', () => {
  it('fires on exactly the moves that changed nothing, in the records and in the wrapper, and the record verifies', async () => {
    const shaped = await gym.env({ game: 'g2048', seed: 3, observation: 'state', maxSteps: MAX_STEPS, shaping: { noOp: -1 } });
    const plain = new ShapeReward(await gym.env({ game: 'g2048', seed: 3, observation: 'state', maxSteps: MAX_STEPS }), { noOp: -1 });
    let before = canonicalJson((await shaped.reset({ seed: 3 })).info.state);
    await plain.reset({ seed: 3 });
    let noOps = 0;
    let record;
    for (let t = 0; t < MAX_STEPS; t++) {
      const a = await shaped.step(UP); // up, again and again: soon nothing moves
      const b = await plain.step(UP);
      const after = canonicalJson(a.info.state);
      const unchanged = after === before;
      if (unchanged) noOps++;
      const scoreDelta = (a.info.state.score as number) - (JSON.parse(before).score as number);
      expect(a.reward).toBe(scoreDelta + (unchanged ? -1 : 0));
      expect(b.reward).toBe(a.reward);
      before = after;
      record = a.info.episode;
      if (a.terminated || a.truncated) break;
    }
    expect(noOps).toBeGreaterThan(0);
    expect(record!.shaping).toEqual({ perStep: 0, terminal: 0, noOp: -1 });
    const v = await verifyEpisode(record, await gym.browser());
    expect(v.ok).toBe(true);
  });
});
