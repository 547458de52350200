import { makeVectorEnv } from '../vector';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../testing/harness';
import { canonicalJson, type GuiAction } from '../schema';
import { replayActions, runEpisode } from '../eval/run-episode';
import { createRandomAgent } from '../agents/random-agent';
import { createScriptedAgent } from '../agents/scripted-agent';
import type { MoleBopState } from '../../games-external/mole-bop/verifier';

// Mole Bop (games-external/mole-bop): a third-party-style DOM game whose moles become
// boppable on `transitionend` and drop on `animationend`, with its score in the page's text.
const WAIT = 9;
const gym = useBrowser();
const st = (s: unknown) => s as MoleBopState;

describe('mole-bop (external DOM game)', () => {
  it('scores 10 for bopping a mole that is fully up, nothing for an empty hole, and ends after three escapes', async () => {
    const env = await gym.env({ game: 'mole-bop', seed: 4, observation: 'state' });
    const { info } = await env.reset({ seed: 4 });
    expect(st(info.state)).toMatchObject({ score: 0, lives: 3, level: 1, gameOver: false });
    let s = st(info.state);
    // Wait for a mole to be fully up, then bop it.
    while (!s.holes.includes(2)) s = st((await env.step(WAIT)).info.state);
    const hole = s.holes.indexOf(2);
    const empty = s.holes.findIndex((h, i) => h === 0 && i !== hole);
    const miss = await env.step(empty);
    expect(miss.reward).toBe(0);
    const hit = await env.step(hole);
    expect(hit.reward).toBe(10);
    expect(st(hit.info.state).score).toBe(10);
    // The bop animation plays, then the mole drops (animationend) and its hole frees up.
    expect(st(hit.info.state).holes[hole]).toBe(3);
    const later = await env.step(WAIT);
    expect(st(later.info.state).holes[hole]).not.toBe(3);

    // From here on nobody bops: every mole escapes, costing a life each, and the third ends it.
    let last = later;
    const lives: number[] = [];
    while (!last.terminated && !last.truncated) {
      last = await env.step(WAIT);
      lives.push(st(last.info.state).lives);
      expect(last.reward).toBe(0);
    }
    expect(last.terminated).toBe(true);
    expect(st(last.info.state)).toMatchObject({ lives: 0, gameOver: true, score: 10 });
    // One life per escape: never more than one per step, never back up.
    const drops = lives.slice(1).map((l, i) => lives[i] - l);
    expect(drops.every((d) => d === 0 || d === 1)).toBe(true);
    expect(lives[0] - lives[lives.length - 1]).toBeGreaterThanOrEqual(2);
  });

  it('moles become boppable 150 ms of virtual time after they rise, however slowly the steps come', async () => {
    // 10 ms steps show the CSS transition's timing; the second run sleeps between steps so
    // real time passes: with CSS on the real clock the moles would be up at once.
    const trace = async (sleepMs: number) => {
      const env = await gym.env({ game: 'mole-bop', seed: 9, observation: 'state', msPerStep: 10, maxSteps: 400 });
      await env.reset({ seed: 9 });
      const rose = new Map<number, number>();
      const delays: number[] = [];
      const states: string[] = [];
      for (let i = 0; i < 160; i++) {
        const r = await env.step(WAIT);
        const s = st(r.info.state);
        states.push(s.holes.join(''));
        s.holes.forEach((h, k) => {
          if (h === 1 && !rose.has(k)) rose.set(k, r.info.virtualTimeMs);
          if (h === 2 && rose.has(k)) {
            delays.push(r.info.virtualTimeMs - rose.get(k)!);
            rose.delete(k);
          }
        });
        if (sleepMs && i % 20 === 0) await new Promise((res) => setTimeout(res, sleepMs));
      }
      return { delays, states };
    };
    const fast = await trace(0);
    expect(fast.delays.length).toBeGreaterThanOrEqual(1);
    for (const d of fast.delays) {
      expect(d).toBeGreaterThanOrEqual(140);
      expect(d).toBeLessThanOrEqual(160);
    }
    const slow = await trace(200);
    expect(slow).toEqual(fast);
  });

  it('gives byte-identical episode records for the same seed and actions, different ones for another seed', async () => {
    const actions: (number | GuiAction)[] = [WAIT, WAIT, 4, WAIT, 0, 8, { type: 'click', x: 300, y: 100 }, WAIT, 2, 6, WAIT, 5, WAIT, 3, 1, 7];
    const a = await replayActions(await gym.env({ game: 'mole-bop', seed: 2, observation: 'state' }), 2, actions);
    const env2 = await gym.env({ game: 'mole-bop', seed: 2, observation: 'state' });
    const b = await replayActions(env2, 2, actions);
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    const c = await replayActions(env2, 3, actions);
    expect(canonicalJson(c)).not.toBe(canonicalJson(a));
  });

  it('offers screenshots, pixels made from them, and a frame hash of the DOM that does not depend on painting', async () => {
    const pixels = await gym.env({ game: 'mole-bop', seed: 1, observation: ['pixels'] });
    expect((await pixels.reset({ seed: 1 })).observation.pixels).toMatchObject({ width: 84, height: 84, channels: 1 });
    // Many instances of one page cannot each be screenshot: a batched vector env says so and names what works.
    expect(() => makeVectorEnv({ game: 'mole-bop', numEnvs: 2, observation: ['pixels'], batched: true })).toThrow(/page per env/);
    const shot = await gym.env({ game: 'mole-bop', seed: 1, observation: ['state', 'screenshot'] });
    const plain = await gym.env({ game: 'mole-bop', seed: 1, observation: ['state'] });
    await shot.reset({ seed: 1 });
    await plain.reset({ seed: 1 });
    let r;
    for (let i = 0; i < 5; i++) {
      r = await shot.step(WAIT);
      await plain.step(WAIT);
    }
    const png = r!.observation.screenshot!;
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(360);
    expect(png.readUInt32BE(20)).toBe(400);
    expect(await shot.frameHash()).toBe(await plain.frameHash());
  });

  it('the scripted agent clearly beats a random one', async () => {
    const env = await gym.env({ game: 'mole-bop', seed: 0, observation: 'state' });
    const scripted = await runEpisode(env, await createScriptedAgent('mole-bop'), 11);
    const random = await runEpisode(env, createRandomAgent(), 11);
    expect(scripted.totals.score).toBeGreaterThanOrEqual(100);
    expect(scripted.totals.score).toBeGreaterThan(random.totals.score * 2);
  });
});
