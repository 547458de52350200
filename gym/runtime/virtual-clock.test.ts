import { describe, expect, it } from 'vitest';
import { FRAME_MS, VirtualClock } from './virtual-clock';
import { SeededRandom } from '../random/seeded-random';

describe('VirtualClock', () => {
  it('is paused until advanced, then fires timers in time order, ties in creation order', () => {
    const c = new VirtualClock();
    const log: string[] = [];
    c.setTimer(() => log.push(`b@${c.now()}`), 20, false);
    c.setTimer(() => log.push(`a@${c.now()}`), 10, false);
    c.setTimer(() => log.push(`c@${c.now()}`), 20, false);
    expect(c.now()).toBe(0);
    c.advance(15);
    expect(log).toEqual(['a@10']);
    expect(c.now()).toBe(15);
    c.advance(5);
    expect(log).toEqual(['a@10', 'b@20', 'c@20']);
  });

  it('repeats intervals exactly and stops them when cleared, even from inside the callback', () => {
    const c = new VirtualClock();
    const times: number[] = [];
    const id = c.setTimer(
      () => {
        times.push(c.now());
        if (times.length === 3) c.clearTimer(id);
      },
      30,
      true,
    );
    c.advance(1000);
    expect(times).toEqual([30, 60, 90]);
    expect(c.pendingTimers()).toBe(0);
  });

  it('runs timers created during an advance when they fall due within it', () => {
    const c = new VirtualClock();
    const times: number[] = [];
    const chain = () => {
      times.push(c.now());
      c.setTimer(chain, 100, false);
    };
    c.setTimer(chain, 100, false);
    c.advance(350);
    expect(times).toEqual([100, 200, 300]);
  });

  it('fires animation frames at 60 Hz of virtual time, one callback list per frame', () => {
    const c = new VirtualClock();
    const stamps: number[] = [];
    const loop = (t: number) => {
      stamps.push(t);
      c.requestFrame(loop);
    };
    c.requestFrame(loop);
    c.advance(100);
    expect(stamps).toHaveLength(6);
    stamps.forEach((t, i) => expect(t).toBeCloseTo((i + 1) * FRAME_MS, 9));
    const cancelled = c.requestFrame(() => stamps.push(-1));
    c.cancelFrame(cancelled);
    c.advance(FRAME_MS);
    expect(stamps).not.toContain(-1);
  });

  it('gives Date-style wall time from a fixed epoch', () => {
    const c = new VirtualClock(1_000_000);
    c.advance(2.5);
    expect(c.wallNow()).toBe(1_000_002);
  });

  it('rejects bad input and runaway loops with clear errors', () => {
    const c = new VirtualClock();
    expect(() => c.advance(-1)).toThrow(/ms must be a finite number >= 0/);
    expect(() => c.advance(Number.NaN)).toThrow(/finite/);
    const errors: unknown[] = [];
    const c2 = new VirtualClock(0, (e) => errors.push(e));
    c2.setTimer(
      () => {
        throw new Error('game bug');
      },
      5,
      false,
    );
    c2.setTimer(() => errors.push('next timer still ran'), 6, false);
    c2.advance(10);
    expect(errors.map(String)).toEqual(['Error: game bug', 'next timer still ran']);
  });
});

describe('SeededRandom', () => {
  it('repeats for a seed, differs across seeds, and stays in [0, 1)', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    const c = new SeededRandom(43);
    const xs = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 1000 }, () => c.next())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });
});

describe('VirtualClock frame grid', () => {
  it('covers the same number of frames on every step of the same length after a one-frame start', () => {
    const c = new VirtualClock();
    let frames = 0;
    const loop = () => {
      frames++;
      c.requestFrame(loop);
    };
    c.requestFrame(loop);
    c.advance(1000 / 60);
    const perStep: number[] = [];
    for (let i = 0; i < 50; i++) {
      const before = frames;
      c.advance(200);
      perStep.push(frames - before);
    }
    expect(new Set(perStep)).toEqual(new Set([12]));
  });
});
