import { describe, expect, it } from 'vitest';
import { useBrowser, checkScriptedSteps, presetIndices } from '../../gym/testing';
import { gameTests } from '../shared/testing/game-tests';
import type { GuiAction } from '../../gym/schema';
import type { PlatformerVerifierState } from '../../verifiers/platformer';
import { TILE, newPlayer, stepPlayer, type TileWorld } from './physics';

const [RIGHT, JUMP_RIGHT, JUMP, NOOP] = presetIndices('platformer', ['right', 'jump-right', 'jump', 'noop']);
const gym = useBrowser();
const game = gameTests(gym, 'platformer');
const flatWorld: TileWorld = { tile: (_x, y) => (y < 2 ? TILE.GROUND : TILE.EMPTY) };

/** The game's physics replayed in Node for `frames` frames of one held input. */
function simulate(frames: { right?: boolean; left?: boolean; jump?: boolean; pressed?: boolean }[]) {
  const p = newPlayer(3.5, 2);
  for (const f of frames) stepPlayer(flatWorld, p, { right: !!f.right, left: !!f.left, jump: !!f.jump }, !!f.pressed, 0.3);
  return p;
}
const hold = (n: number, f: { right?: boolean; left?: boolean; jump?: boolean }) =>
  Array.from({ length: n }, (_, i) => ({ ...f, pressed: !!f.jump && i === 0 }));
/**
 * One 200 ms step of a preset key held for 200 ms: frames come at 16.7, 33.3 … 200 ms and the
 * key goes up at 200 ms, just before the frame due at that instant, so 11 frames see it held.
 */
const step = (f: { right?: boolean; left?: boolean; jump?: boolean }) => [...hold(11, f), {}];

describe('platformer', () => {
  it('starts on flat ground with three lives and a course from the seed', async () => {
    const { env, observation, state: s } = await game.start<PlatformerVerifierState>(1, { observation: ['state', 'vector'] });
    expect(s.player.x).toBe(3.5);
    expect(s.player.y).toBe(2);
    expect(s.lives).toBe(3);
    expect(s.score).toBe(0);
    expect(s.gameOver).toBe(false);
    // The opening stretch is flat ground two tiles high.
    for (let x = 0; x < 14; x++) expect(s.view.tiles[x - s.view.x0]?.slice(0, 3) ?? [1, 1, 0]).toEqual([1, 1, 0]);
    expect(observation.vector).toHaveLength(env.game.featureNames.length);
    const courses = new Set<string>();
    for (let seed = 1; seed < 5; seed++) {
      await env.reset({ seed });
      // Run a little so the view reaches the generated part of the course.
      let st: PlatformerVerifierState | null = null;
      for (let i = 0; i < 8; i++) st = (await env.step(RIGHT)).info.state as PlatformerVerifierState;
      courses.add(JSON.stringify(st!.view));
    }
    expect(courses.size).toBeGreaterThan(1);
  });

  it('runs and jumps with the same physics the tests replay in Node, and scores distance', async () => {
    const env = await gym.env({ game: 'platformer', seed: 2, observation: 'state' });
    const f0 = ((await env.reset({ seed: 2 })).info.state as PlatformerVerifierState).frames;
    // One step = 12 frames at 60 Hz.
    let r = await env.step(RIGHT);
    let s = r.info.state as PlatformerVerifierState;
    const expected = simulate(step({ right: true }));
    expect(s.player.x).toBeCloseTo(expected.x, 9);
    expect(s.player.vx).toBeCloseTo(expected.vx, 9);
    expect(s.frames - f0).toBe(12);
    expect(r.reward).toBe(Math.floor(expected.x - 3.5));
    // Two more running steps, then let go: friction stops the runner within a step.
    const more = simulate([...step({ right: true }), ...step({ right: true }), ...step({ right: true }), ...hold(24, {})]);
    await env.step(RIGHT);
    await env.step(RIGHT);
    await env.step(NOOP);
    r = await env.step(NOOP);
    s = r.info.state as PlatformerVerifierState;
    expect(s.player.vx).toBe(0);
    // Later steps may hold 11–13 frames (the virtual clock's step boundaries drift by rounding
    // against its exact 60 Hz frame grid): allow one frame of running either way.
    expect(Math.abs(s.player.x - more.x)).toBeLessThan(0.13);
    expect(s.score).toBe(s.maxDistance + 5 * s.coins + 10 * s.stomps);
    expect(s.maxDistance).toBe(Math.floor(more.x - 3.5));
  });

  it('jumps higher the longer the key is held', async () => {
    const env = await gym.env({ game: 'platformer', seed: 3, observation: 'state' });
    const apex = async (action: number | GuiAction) => {
      await env.reset({ seed: 3 });
      let top = 0;
      let s = (await env.step(action)).info.state as PlatformerVerifierState;
      top = Math.max(top, s.player.y);
      for (let i = 0; i < 4; i++) {
        s = (await env.step(NOOP)).info.state as PlatformerVerifierState;
        top = Math.max(top, s.player.y);
      }
      expect(s.player.onGround).toBe(true);
      expect(s.player.y).toBe(2);
      return top;
    };
    const tap = await apex({ type: 'key', key: 'ArrowUp', holdMs: 16 });
    const full = await apex(JUMP);
    expect(tap).toBeGreaterThan(2.5);
    expect(full).toBeGreaterThan(tap + 0.5);
    // A step ends 12 frames after the press: the state then matches the Node replay exactly.
    await env.reset({ seed: 3 });
    const s = (await env.step(JUMP)).info.state as PlatformerVerifierState;
    const p = simulate(step({ jump: true }));
    expect(s.player.y).toBeCloseTo(p.y, 9);
    expect(s.player.vy).toBeCloseTo(p.vy, 9);
  });

  it('loses a life in a pit, respawns invulnerable, and ends after the third', async () => {
    const { env, state: s0 } = await game.start<PlatformerVerifierState>(2, { observation: 'state', maxSteps: 200 });
    let s = s0;
    // A clumsy runner: jumps walls but never gaps.
    const deaths: number[] = [];
    let last;
    for (let i = 0; i < 200; i++) {
      const px = Math.floor(s.player.x);
      const col = s.view.tiles[px + 1 - s.view.x0];
      const wall = col && col[Math.round(s.player.y)] ? 1 : 0;
      last = await env.step(wall ? JUMP_RIGHT : RIGHT);
      const n = last.info.state as PlatformerVerifierState;
      expect(last.reward).toBeGreaterThanOrEqual(0);
      if (n.deaths > s.deaths) {
        deaths.push(i);
        expect(n.lives).toBe(3 - deaths.length);
        if (n.lives > 0) {
          expect(n.dying).toBe(true);
          // The pause lasts 800 ms: four steps later the player is back, blinking.
          let t = n;
          for (let k = 0; k < 4; k++) t = (await env.step(NOOP)).info.state as PlatformerVerifierState;
          expect(t.dying).toBe(false);
          expect(t.invulnerableMs).toBeGreaterThan(0);
          expect(t.player.y).toBeGreaterThanOrEqual(1);
          expect(t.lives).toBe(n.lives);
          s = t;
          continue;
        }
      }
      s = n;
      if (last.terminated) break;
    }
    expect(deaths).toHaveLength(3);
    expect(last!.terminated).toBe(true);
    expect(s.gameOver).toBe(true);
    expect(s.lives).toBe(0);
    expect(s.score).toBe(s.maxDistance + 5 * s.coins + 10 * s.stomps);
    const page = env.currentPage!;
    const after = await page.evaluate(() => {
      const obs = { state: true, vector: false, pixels: null, frameHash: false };
      globalThis.__arcade.step({ action: { type: 'key', key: 'ArrowRight', holdMs: 200 }, ms: 200, obs });
      globalThis.__arcade.step({ action: { type: 'key', key: 'x', holdMs: 200 }, ms: 200, obs });
      return globalThis.__arcade.step({ action: null, ms: 1000, obs }).state;
    });
    expect(after).toEqual(s);
  });

  it('scores distance + 5 per coin + 10 per stomp at every step of a scripted run', async () => {
    const env = await gym.env({ game: 'platformer', seed: 1, observation: 'state', maxSteps: 100 });
    let total = 0;
    let s = {} as PlatformerVerifierState;
    await checkScriptedSteps<PlatformerVerifierState>(env, 1, (before, _action, r) => {
      const n = r.info.state as PlatformerVerifierState;
      expect(n.score).toBe(n.maxDistance + 5 * n.coins + 10 * n.stomps);
      expect(r.reward).toBe(n.score - before.score);
      expect(n.maxDistance).toBeGreaterThanOrEqual(before.maxDistance);
      total += r.reward;
      s = n;
    });
    expect(total).toBe(s.score);
    expect(s.coins).toBeGreaterThan(0);
    expect(s.stomps).toBeGreaterThan(0);
    expect(s.maxDistance).toBeGreaterThan(90);
  });

  game.framesChange('renders a non-blank 3D frame that scrolls as the player runs', {
    seed: 4,
    before: () => [RIGHT, RIGHT],
    change: RIGHT,
    distinct: 30,
    std: 15,
  });

  game.beatsRandom('the scripted agent clearly beats a random agent', { seeds: [2], above: (r) => Math.max(r + 100, 1.8 * r) });
});
