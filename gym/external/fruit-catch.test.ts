import { describe, expect, it } from 'vitest';
import { useBrowser } from '../testing/harness';
import { presetIndices, scriptedAndRandomScores } from '../testing/game-checks';
import { canonicalJson, type GuiAction } from '../schema';
import { replayActions } from '../eval/run-episode';

// Fruit Catch (games-external/fruit-catch): a third-party-style canvas game, a rAF loop with
// Date deltas and top-level variables, verified by a plain-JavaScript verifier.
const [LEFT, RIGHT, STAY] = presetIndices('fruit-catch', ['left', 'right', 'stay']);
const gym = useBrowser();

interface Item {
  x: number;
  y: number;
  vy: number;
  kind: 'apple' | 'pear' | 'bomb';
}
interface State {
  score: number;
  gameOver: boolean;
  lives: number;
  level: number;
  basketX: number;
  basketY: number;
  basketWidth: number;
  items: Item[];
}
const st = (s: unknown) => s as State;

describe('fruit-catch (external canvas game)', () => {
  it('moves the basket only while a key is held, by Date deltas in virtual time', async () => {
    const env = await gym.env({ game: 'fruit-catch', seed: 1, observation: 'state' });
    const { info } = await env.reset({ seed: 1 });
    expect(st(info.state)).toMatchObject({ score: 0, lives: 3, level: 1, basketX: 160, gameOver: false });
    const right = st((await env.step(RIGHT)).info.state).basketX;
    // 240 px/s while held: a 150 ms step moves it by the frames that saw the key down.
    expect(right - 160).toBeGreaterThan(28);
    expect(right - 160).toBeLessThan(37);
    expect(st((await env.step(STAY)).info.state).basketX).toBe(right);
    const left = st((await env.step(LEFT)).info.state).basketX;
    // Back by about as much (Date.now() is whole milliseconds, so frames are 16 or 17 ms apart).
    expect(Math.abs(left - 160)).toBeLessThan(5);
    // Real time does not move anything between steps.
    const before = await env.currentPage!.evaluate(() => JSON.stringify((window as unknown as { items: unknown }).items));
    await new Promise((r) => setTimeout(r, 300));
    expect(await env.currentPage!.evaluate(() => JSON.stringify((window as unknown as { items: unknown }).items))).toBe(before);
  });

  it('scores 10 for an apple and 15 for a pear caught in the basket; a dropped fruit costs a life', async () => {
    const env = await gym.env({ game: 'fruit-catch', seed: 6, observation: 'state' });
    let s = st((await env.reset({ seed: 6 })).info.state);
    while (!s.items.some((it) => it.kind !== 'bomb')) s = st((await env.step(STAY)).info.state);
    const fruit = s.items.find((it) => it.kind !== 'bomb')!;
    const same = (it: Item) => it.x === fruit.x && it.kind === fruit.kind;
    // Follow it with the basket until it is gone, then check what the verifier saw.
    const rewards: number[] = [];
    while (s.items.some(same)) {
      const dx = fruit.x - s.basketX;
      const r = await env.step(dx > 12 ? RIGHT : dx < -12 ? LEFT : STAY);
      rewards.push(r.reward);
      s = st(r.info.state);
    }
    expect(rewards.slice(0, -1).every((r) => r === 0)).toBe(true);
    expect(rewards[rewards.length - 1]).toBe(fruit.kind === 'apple' ? 10 : 15);
    expect(s.lives).toBe(3);

    // A second episode where the basket runs away from the first fruit: a life is lost, no score.
    s = st((await env.reset({ seed: 6 })).info.state);
    while (!s.items.some(same)) s = st((await env.step(STAY)).info.state);
    const away = fruit.x < 160 ? RIGHT : LEFT;
    let total = 0;
    while (s.items.some(same)) {
      const r = await env.step(away);
      total += r.reward;
      s = st(r.info.state);
    }
    expect(total).toBe(0);
    expect(s.lives).toBe(2);
  });

  it('reads a top-level let (level) that is not a window property', async () => {
    const env = await gym.env({ game: 'fruit-catch', seed: 2, observation: 'state' });
    await env.reset({ seed: 2 });
    const page = env.currentPage!;
    expect(await page.evaluate(() => 'level' in window)).toBe(false);
    await page.evaluate(() => (0, eval)('level = 4'));
    expect(st((await env.step(STAY)).info.state).level).toBe(4);
  });

  it('gives byte-identical records for the same seed and actions, and draws a changing, non-blank frame', async () => {
    const actions: (number | GuiAction)[] = [
      RIGHT,
      RIGHT,
      STAY,
      LEFT,
      { type: 'key', key: 'ArrowLeft', holdMs: 300 },
      STAY,
      RIGHT,
      STAY,
      STAY,
      LEFT,
      LEFT,
      STAY,
      RIGHT,
      STAY,
      STAY,
      STAY,
      STAY,
      STAY,
      RIGHT,
      RIGHT,
      RIGHT,
    ];
    const env1 = await gym.env({ game: 'fruit-catch', seed: 5, observation: 'state' });
    const env2 = await gym.env({ game: 'fruit-catch', seed: 5, observation: 'state' });
    const a = await replayActions(env1, 5, actions);
    const b = await replayActions(env2, 5, actions);
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(canonicalJson(await replayActions(env2, 6, actions))).not.toBe(canonicalJson(a));

    const env = await gym.env({ game: 'fruit-catch', seed: 5, observation: ['pixels'] });
    await env.reset({ seed: 5 });
    const h0 = await env.frameHash();
    let r;
    for (let i = 0; i < 8; i++) r = await env.step(RIGHT);
    expect(await env.frameHash()).not.toBe(h0);
    const px = r!.observation.pixels!.data;
    expect(new Set(px).size).toBeGreaterThan(8);
  });

  it('the scripted agent clearly beats a random one', async () => {
    const env = await gym.env({ game: 'fruit-catch', seed: 0, observation: 'state' });
    const { scripted, random } = await scriptedAndRandomScores(env, 3);
    expect(scripted).toBeGreaterThanOrEqual(60);
    expect(scripted).toBeGreaterThan(random + 40);
  });
});
