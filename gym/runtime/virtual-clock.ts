/**
 * A virtual clock that replaces the page's timing APIs. Time starts paused at a fixed
 * epoch and moves only through `advance(ms)`: timers fire in (time, creation) order and
 * animation frames at a fixed 60 Hz of virtual time. Nothing here reads the real clock,
 * so the same calls give the same sequence of callbacks in any browser.
 *
 * It has no dependency on Playwright: the gym injects it with an init script and a visible
 * page loads it with a plain <script> tag.
 */

export const FRAME_MS = 1000 / 60;
/** 2024-01-01T00:00:00Z: a fixed wall-clock start so `new Date()` is reproducible. */
export const DEFAULT_EPOCH_MS = 1_704_067_200_000;
/** Callbacks one advance may run before it is treated as a runaway loop. */
const MAX_CALLBACKS_PER_ADVANCE = 2_000_000;

/**
 * Sums of fractional frame times drift by ~1e-13 ms (16.666… + 200 is not exactly 13 frames);
 * a target that close to a frame boundary is that boundary, so every step of the same length
 * covers the same number of frames.
 */
function snapToFrameGrid(t: number): number {
  const frame = Math.round((t * 60) / 1000);
  const onGrid = (frame * 1000) / 60;
  return Math.abs(onGrid - t) < 1e-6 ? onGrid : t;
}

interface Timer {
  id: number;
  at: number;
  seq: number;
  fn: () => void;
  intervalMs: number | null;
}

/** A binary min-heap on (at, seq): the order timers must fire in. */
class TimerQueue {
  private heap: Timer[] = [];
  private static before(a: Timer, b: Timer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
  get size(): number {
    return this.heap.length;
  }
  peek(): Timer | undefined {
    return this.heap[0];
  }
  push(t: Timer): void {
    const h = this.heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!TimerQueue.before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }
  pop(): Timer | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && TimerQueue.before(h[l], h[m])) m = l;
        if (r < h.length && TimerQueue.before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

export type ClockErrorSink = (error: unknown) => void;

export class VirtualClock {
  /** Virtual milliseconds since the page started. */
  private nowMs = 0;
  private nextId = 1;
  private seq = 0;
  private readonly timers = new TimerQueue();
  /** Live timers by id; a cleared timer is removed here and skipped when popped. */
  private readonly live = new Map<number, Timer>();
  private frameCallbacks = new Map<number, FrameRequestCallback>();
  private frameIndex = 1;
  private advancing = false;
  /** Run at each frame before the page's rAF callbacks (see addFrameHook). */
  private readonly frameHooks: ((now: number) => void)[] = [];

  constructor(
    readonly epochMs: number = DEFAULT_EPOCH_MS,
    private readonly onError: ClockErrorSink = (e) => console.error(e),
  ) {}

  now(): number {
    return this.nowMs;
  }

  wallNow(): number {
    return Math.floor(this.epochMs + this.nowMs);
  }

  setTimer(fn: () => void, delayMs: number, repeat: boolean): number {
    const delay = Number.isFinite(delayMs) && delayMs > 0 ? delayMs : 0;
    const id = this.nextId++;
    // Browsers clamp intervals; an interval of 0 would otherwise fire forever within one advance.
    const intervalMs = repeat ? Math.max(1, delay) : null;
    const t: Timer = { id, at: this.nowMs + (repeat ? intervalMs! : delay), seq: this.seq++, fn, intervalMs };
    this.live.set(id, t);
    this.timers.push(t);
    return id;
  }

  clearTimer(id: number): void {
    this.live.delete(id);
  }

  requestFrame(cb: FrameRequestCallback): number {
    const id = this.nextId++;
    this.frameCallbacks.set(id, cb);
    return id;
  }

  cancelFrame(id: number): void {
    this.frameCallbacks.delete(id);
  }

  /**
   * Runs `hook` at every frame before the page's requestAnimationFrame callbacks, where a
   * browser runs its "update animations and send events" step (the runtime drives CSS
   * animations from here).
   */
  addFrameHook(hook: (now: number) => void): void {
    this.frameHooks.push(hook);
  }

  private nextFrameAt(): number {
    // k·1000/60 rather than k·FRAME_MS: exact at whole milliseconds (frame 60 is at 1000, not 1000.0000000000001).
    return (this.frameIndex * 1000) / 60;
  }

  /** Move time forward by `ms`, running every timer and frame that falls due, in order. */
  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`advance: ms must be a finite number >= 0, got ${ms}`);
    if (this.advancing) throw new Error('advance: called re-entrantly from a timer or frame callback');
    this.advancing = true;
    const target = snapToFrameGrid(this.nowMs + ms);
    let budget = MAX_CALLBACKS_PER_ADVANCE;
    try {
      for (;;) {
        const timer = this.peekLiveTimer();
        const frameAt = this.nextFrameAt();
        const timerAt = timer ? timer.at : Infinity;
        // Timers due at the same instant as a frame run first, as a task runs before rendering.
        if (timerAt <= frameAt && timerAt <= target) {
          this.timers.pop();
          this.nowMs = Math.max(this.nowMs, timerAt);
          if (timer!.intervalMs !== null) {
            timer!.at += timer!.intervalMs;
            timer!.seq = this.seq++;
            this.timers.push(timer!);
          } else {
            this.live.delete(timer!.id);
          }
          this.run(() => timer!.fn());
        } else if (frameAt <= target) {
          this.nowMs = Math.max(this.nowMs, frameAt);
          this.frameIndex++;
          const callbacks = this.frameCallbacks;
          this.frameCallbacks = new Map();
          const stamp = this.nowMs;
          for (const hook of this.frameHooks) this.run(() => hook(stamp));
          for (const cb of callbacks.values()) this.run(() => cb(stamp));
          budget -= callbacks.size;
        } else {
          break;
        }
        if (--budget <= 0) throw new Error(`advance: more than ${MAX_CALLBACKS_PER_ADVANCE} callbacks in one advance (runaway timer loop?)`);
      }
      this.nowMs = target;
    } finally {
      this.advancing = false;
    }
  }

  private peekLiveTimer(): Timer | undefined {
    for (;;) {
      const t = this.timers.peek();
      if (!t) return undefined;
      if (this.live.get(t.id) === t) return t;
      this.timers.pop();
    }
  }

  private run(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.onError(e);
    }
  }

  pendingTimers(): number {
    return this.live.size;
  }
}
