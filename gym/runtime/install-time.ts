import type { VirtualClock } from './virtual-clock';
import type { SeededRandom } from '../random/seeded-random';

/**
 * Replaces the page's timing and randomness APIs with the virtual clock and a seeded PRNG.
 * Must run before any game script: the gym injects it as an init script, a visible page
 * loads it as the first <script>.
 */
export function installVirtualTime(win: typeof globalThis, clock: VirtualClock, rng: SeededRandom): void {
  const RealDate = win.Date;

  // --- Date: `new Date()`, `Date()` and `Date.now()` read virtual time; other forms are untouched.
  function VirtualDate(this: unknown, ...args: unknown[]): unknown {
    if (!new.target) return new RealDate(clock.wallNow()).toString();
    const params = args.length === 0 ? [clock.wallNow()] : args;
    return Reflect.construct(RealDate, params, new.target);
  }
  VirtualDate.prototype = RealDate.prototype;
  Object.defineProperties(VirtualDate, {
    now: { value: () => clock.wallNow(), writable: true, configurable: true },
    parse: { value: RealDate.parse, writable: true, configurable: true },
    UTC: { value: RealDate.UTC, writable: true, configurable: true },
  });
  win.Date = VirtualDate as unknown as DateConstructor;

  // --- performance.now and event time stamps.
  const perf = win.performance;
  Object.defineProperty(perf, 'now', { value: () => clock.now(), configurable: true, writable: true });
  if (typeof win.Event === 'function') {
    Object.defineProperty(win.Event.prototype, 'timeStamp', { get: () => clock.now(), configurable: true });
  }
  if (win.document && 'timeline' in win.document) {
    try {
      Object.defineProperty(win.document.timeline, 'currentTime', { get: () => clock.now(), configurable: true });
    } catch {
      // Some engines make it non-configurable; CSS animations then keep real time.
    }
  }

  // --- Timers.
  const toCallback = (handler: TimerHandler, args: unknown[]): (() => void) => {
    if (typeof handler === 'function') return () => (handler as (...a: unknown[]) => void)(...args);
    // String handlers are legal in browsers; evaluate them in the global scope like they do.
    const code = String(handler);
    return () => (0, eval)(code);
  };
  const w = win as unknown as Record<string, unknown>;
  w.setTimeout = (handler: TimerHandler, delay?: number, ...args: unknown[]) => clock.setTimer(toCallback(handler, args), Number(delay ?? 0), false);
  w.setInterval = (handler: TimerHandler, delay?: number, ...args: unknown[]) => clock.setTimer(toCallback(handler, args), Number(delay ?? 0), true);
  w.clearTimeout = (id?: number) => id !== undefined && clock.clearTimer(Number(id));
  w.clearInterval = (id?: number) => id !== undefined && clock.clearTimer(Number(id));
  w.requestAnimationFrame = (cb: FrameRequestCallback) => clock.requestFrame(cb);
  w.cancelAnimationFrame = (id: number) => clock.cancelFrame(Number(id));
  w.requestIdleCallback = (cb: IdleRequestCallback) => clock.setTimer(() => cb({ didTimeout: false, timeRemaining: () => 50 }), 0, false);
  w.cancelIdleCallback = (id: number) => clock.clearTimer(Number(id));
  installVirtualScheduler(win, clock);

  // --- Randomness.
  win.Math.random = () => rng.next();
  const cryptoObj = win.crypto;
  if (cryptoObj) {
    const fill = <T extends ArrayBufferView | null>(array: T): T => {
      if (array) rng.fillBytes(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      return array;
    };
    Object.defineProperty(cryptoObj, 'getRandomValues', { value: fill, configurable: true, writable: true });
    Object.defineProperty(cryptoObj, 'randomUUID', {
      value: () => {
        const b = new Uint8Array(16);
        rng.fillBytes(b);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      },
      configurable: true,
      writable: true,
    });
  }

  // --- WebGL: keep the drawing buffer so observations can read the last frame at any time.
  const canvasProto = win.HTMLCanvasElement?.prototype;
  if (canvasProto) {
    const realGetContext = canvasProto.getContext;
    canvasProto.getContext = function (this: HTMLCanvasElement, kind: string, options?: Record<string, unknown>) {
      if (kind === 'webgl' || kind === 'webgl2' || kind === 'experimental-webgl') {
        options = { ...(options ?? {}), preserveDrawingBuffer: true };
      }
      return (realGetContext as (k: string, o?: unknown) => RenderingContext | null).call(this, kind, options);
    } as typeof canvasProto.getContext;
  }
}

interface PostTaskOptions {
  delay?: number;
  signal?: AbortSignal;
}

/**
 * `scheduler.postTask` and `scheduler.yield` (Prioritized Task Scheduling) are timers too: they
 * run on the virtual clock in (time, creation) order. Priorities are not modelled. The in-memory
 * IndexedDB schedules its callbacks through `postTask`, so this also keeps them in virtual time.
 */
function installVirtualScheduler(win: typeof globalThis, clock: VirtualClock): void {
  const scheduler = (win as unknown as { scheduler?: object }).scheduler;
  const proto = scheduler ? Object.getPrototypeOf(scheduler) : null;
  if (!proto || typeof proto.postTask !== 'function') return;
  const postTask = <T>(callback: () => T, options?: PostTaskOptions): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const signal = options?.signal;
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clock.clearTimer(id);
        reject(signal!.reason);
      };
      const id = clock.setTimer(
        () => {
          signal?.removeEventListener('abort', onAbort);
          try {
            resolve(callback());
          } catch (e) {
            reject(e);
          }
        },
        Number(options?.delay ?? 0),
        false,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  Object.defineProperty(proto, 'postTask', { value: postTask, configurable: true, writable: true, enumerable: true });
  Object.defineProperty(proto, 'yield', {
    value: () => new Promise<void>((resolve) => clock.setTimer(() => resolve(), 0, false)),
    configurable: true,
    writable: true,
    enumerable: true,
  });
}
