/**
 * CSS transitions, CSS animations and Web Animations run on the document timeline, which
 * follows the browser's real clock: the virtual clock cannot replace it, and between two
 * steps real time keeps moving them. So the runtime takes them over. At every virtual frame
 * (and at the end of every advance) it finds the page's animations with
 * `document.getAnimations()`, pauses each one the first time it sees it, and sets its
 * `currentTime` from virtual time. The events the browser would send for CSS
 * (transitionrun/start/end/cancel, animationstart/iteration/end/cancel) arrive on the real
 * clock, between steps, so the runtime stops the browser's own (trusted) ones at the window
 * before any page listener sees them and sends its own at the virtual frame where they fall
 * due. Games that wait for `transitionend` before changing state thus behave the same on
 * every run, whatever the machine's speed.
 *
 * An animation's virtual start is the frame at which the runtime first sees it, which is
 * where a browser starts it too (at the next frame after the style change).
 *
 * Web Animations (`element.animate()`) are driven the same way; their `finish` and `cancel`
 * events are likewise sent by the runtime at the virtual frame. Not covered: a page that
 * pauses a Web Animation itself with `animation.pause()` (the runtime keeps driving it;
 * seeking with `currentTime` is followed), and the `finished` promise, which settles when
 * the step's script ends rather than at the frame.
 */

const TRANSITION_EVENTS = ['transitionrun', 'transitionstart', 'transitionend', 'transitioncancel'] as const;
const ANIMATION_EVENTS = ['animationstart', 'animationiteration', 'animationend', 'animationcancel'] as const;
/** Legacy names Chrome still sends to pages that only listen for these. */
const PREFIXED_EVENTS = ['webkitTransitionEnd', 'webkitAnimationStart', 'webkitAnimationIteration', 'webkitAnimationEnd'] as const;
type CssEventType = (typeof TRANSITION_EVENTS)[number] | (typeof ANIMATION_EVENTS)[number];

/** Tolerance for comparing virtual times that went through float sums (frames are 1000/60 ms). */
const EPS = 1e-6;

interface Tracked {
  kind: 'transition' | 'animation' | 'web';
  /** Virtual time at which the animation's current time was 0. */
  start: number;
  /** The current time the runtime set last, to notice seeks made by the page. */
  lastSet: number | null;
  lastTick: number;
  /** Whether the start event (after the delay) has been sent. */
  started: boolean;
  /** Iteration boundaries already announced. */
  iterations: number;
}

interface PendingEvent {
  at: number;
  order: number;
  fire: () => void;
}

type CssAnimationLike = Animation & { animationName?: string; transitionProperty?: string };

export class VirtualAnimations {
  private readonly tracked = new Map<Animation, Tracked>();
  /** Finished animations that may still be listed (fill: forwards): never adopted again. */
  private readonly done = new WeakSet<Animation>();

  constructor(private readonly win: Window & typeof globalThis) {
    const stopTrusted = (e: Event) => {
      if (e.isTrusted) e.stopImmediatePropagation();
    };
    // Capture listeners on window run before any listener of the page's, wherever it is.
    for (const type of [...TRANSITION_EVENTS, ...ANIMATION_EVENTS, ...PREFIXED_EVENTS]) win.addEventListener(type, stopTrusted, { capture: true });
    ignoreTrustedPlaybackEvents(win);
  }

  /** Number of animations the runtime is driving now (for tests and debugging). */
  get active(): number {
    return this.tracked.size;
  }

  /** Brings every animation to virtual time `now`, sending the events that fell due. */
  tick(now: number): void {
    const doc = this.win.document;
    if (!doc || typeof doc.getAnimations !== 'function') return;
    const listed = doc.getAnimations();
    const events: PendingEvent[] = [];
    const seen = new Set<Animation>();
    listed.forEach((anim, order) => {
      if (this.done.has(anim)) return;
      seen.add(anim);
      let t = this.tracked.get(anim);
      if (!t) {
        t = this.adopt(anim, now);
        if (t.kind === 'transition') events.push(this.cssEvent(anim, 'transitionrun', now, order, 0));
      }
      this.advanceOne(anim, t, now, order, events);
    });
    // Animations that vanished before finishing were cancelled (a new style value, a removed class).
    for (const [anim, t] of this.tracked) {
      if (seen.has(anim)) continue;
      this.tracked.delete(anim);
      if (t.kind === 'web') {
        events.push(this.playbackEvent(anim, 'cancel', now, -1, null));
        continue;
      }
      const target = targetOf(anim);
      if (!target?.isConnected) continue;
      const timing = timingOf(anim);
      const elapsed = Math.min(Math.max(0, (now - t.start) * (anim.playbackRate || 1) - timing.delay), timing.activeMs);
      events.push(this.cssEvent(anim, t.kind === 'transition' ? 'transitioncancel' : 'animationcancel', now, -1, elapsed));
    }
    // Events of one frame go out in time order, then in the page's composite order.
    events.sort((a, b) => a.at - b.at || a.order - b.order);
    for (const e of events) e.fire();
  }

  private adopt(anim: Animation, now: number): Tracked {
    const css = anim as CssAnimationLike;
    const kind = typeof css.transitionProperty === 'string' ? 'transition' : typeof css.animationName === 'string' ? 'animation' : 'web';
    // A page that created it with a current time (negative delay, a seek) keeps that offset.
    const current = typeof anim.currentTime === 'number' && kind === 'web' ? anim.currentTime : 0;
    const rate = anim.playbackRate || 1;
    const t: Tracked = { kind, start: now - current / rate, lastSet: null, lastTick: now, started: false, iterations: 0 };
    anim.pause();
    this.tracked.set(anim, t);
    return t;
  }

  private advanceOne(anim: Animation, t: Tracked, now: number, order: number, events: PendingEvent[]): void {
    const rate = anim.playbackRate;
    // Paused through CSS (animation-play-state) or a zero rate: hold it where it is.
    if (rate <= 0 || this.cssPaused(anim, t)) t.start += now - t.lastTick;
    t.lastTick = now;
    const current = anim.currentTime;
    if (typeof current === 'number' && t.lastSet !== null && Math.abs(current - t.lastSet) > EPS) t.start = now - current / (rate || 1);
    const local = rate > 0 ? (now - t.start) * rate : (t.lastSet ?? 0);
    const timing = timingOf(anim);
    const at = (localTime: number) => t.start + localTime / (rate || 1);

    if (!t.started && local >= timing.delay - EPS) {
      t.started = true;
      if (t.kind !== 'web') {
        events.push(
          this.cssEvent(anim, t.kind === 'transition' ? 'transitionstart' : 'animationstart', at(Math.max(timing.delay, 0)), order, Math.max(-timing.delay, 0)),
        );
      }
    }
    if (t.kind === 'animation' && timing.iterationMs > 0) {
      const ran = Math.min(local - timing.delay, timing.activeMs);
      while (t.iterations + 1 <= Math.floor((ran + EPS) / timing.iterationMs) && (t.iterations + 1) * timing.iterationMs < timing.activeMs - EPS) {
        t.iterations++;
        const elapsed = t.iterations * timing.iterationMs;
        events.push(this.cssEvent(anim, 'animationiteration', at(timing.delay + elapsed), order, elapsed));
      }
    }
    if (Number.isFinite(timing.endMs) && local >= timing.endMs - EPS) {
      // Finish it as the browser would (end style applied, dropped from the running set) before
      // the page hears about it, so an end handler sees the final state.
      this.tracked.delete(anim);
      this.done.add(anim);
      try {
        anim.finish();
      } catch {
        anim.currentTime = timing.endMs;
      }
      if (t.kind === 'web') events.push(this.playbackEvent(anim, 'finish', at(timing.endMs), order, timing.endMs));
      else {
        const type = t.kind === 'transition' ? 'transitionend' : 'animationend';
        events.push(this.cssEvent(anim, type, at(timing.endMs), order, t.kind === 'transition' ? timing.iterationMs : timing.activeMs));
      }
      return;
    }
    anim.currentTime = local;
    t.lastSet = local;
  }

  private cssPaused(anim: Animation, t: Tracked): boolean {
    if (t.kind !== 'animation') return false;
    const target = targetOf(anim);
    if (!target) return false;
    const style = this.win.getComputedStyle(target, pseudoOf(anim));
    const names = style.animationName.split(',').map((s) => s.trim());
    const states = style.animationPlayState.split(',').map((s) => s.trim());
    const i = names.indexOf((anim as CssAnimationLike).animationName ?? '');
    return i >= 0 && states[i % states.length] === 'paused';
  }

  private playbackEvent(anim: Animation, type: 'finish' | 'cancel', at: number, order: number, currentTime: number | null): PendingEvent {
    const win = this.win;
    return { at, order, fire: () => anim.dispatchEvent(new win.AnimationPlaybackEvent(type, { currentTime, timelineTime: at })) };
  }

  private cssEvent(anim: Animation, type: CssEventType, at: number, order: number, elapsedMs: number): PendingEvent {
    const win = this.win;
    return {
      at,
      order,
      fire: () => {
        const target = targetOf(anim);
        if (!target) return;
        const pseudoElement = pseudoOf(anim) ?? '';
        const elapsedTime = elapsedMs / 1000;
        const event = type.startsWith('transition')
          ? new win.TransitionEvent(type, {
              bubbles: true,
              cancelable: type === 'transitionend',
              propertyName: (anim as CssAnimationLike).transitionProperty ?? '',
              elapsedTime,
              pseudoElement,
            })
          : new win.AnimationEvent(type, {
              bubbles: true,
              cancelable: false,
              animationName: (anim as CssAnimationLike).animationName ?? '',
              elapsedTime,
              pseudoElement,
            });
        target.dispatchEvent(event);
      },
    };
  }
}

function targetOf(anim: Animation): Element | null {
  const effect = anim.effect as KeyframeEffect | null;
  return effect && 'target' in effect ? effect.target : null;
}

function pseudoOf(anim: Animation): string | null {
  const effect = anim.effect as KeyframeEffect | null;
  return effect && 'pseudoElement' in effect ? effect.pseudoElement : null;
}

/** Timing in milliseconds; an infinite animation has endMs = Infinity. */
function timingOf(anim: Animation): { delay: number; iterationMs: number; activeMs: number; endMs: number } {
  const c = anim.effect?.getComputedTiming();
  if (!c) return { delay: 0, iterationMs: 0, activeMs: 0, endMs: 0 };
  const num = (v: unknown) => (typeof v === 'number' ? v : Number(v) || 0);
  const activeMs = c.activeDuration === undefined ? 0 : Number(c.activeDuration);
  return {
    delay: num(c.delay),
    iterationMs: num(c.duration),
    activeMs: Number.isNaN(activeMs) ? 0 : activeMs,
    endMs: c.endTime === undefined ? 0 : Number(c.endTime),
  };
}

/**
 * A Web Animation's own `finish`/`cancel` events come from the browser on the real clock;
 * page listeners (addEventListener and onfinish/oncancel) are wrapped to ignore those, so
 * only the runtime's events, sent at the virtual frame, reach them.
 */
function ignoreTrustedPlaybackEvents(win: Window & typeof globalThis): void {
  const proto = win.Animation?.prototype;
  if (!proto) return;
  const TYPES = new Set(['finish', 'cancel']);
  const wrappers = new WeakMap<object, EventListener>();
  const wrap = (listener: EventListenerOrEventListenerObject): EventListener => {
    let w = wrappers.get(listener);
    if (!w) {
      w = function (this: unknown, e: Event) {
        if (e.isTrusted) return;
        if (typeof listener === 'function') listener.call(this, e);
        else listener.handleEvent(e);
      };
      wrappers.set(listener, w);
    }
    return w;
  };
  const add = proto.addEventListener;
  const remove = proto.removeEventListener;
  proto.addEventListener = function (
    this: Animation,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    add.call(this, type, (listener && TYPES.has(type) ? wrap(listener) : listener) as EventListenerOrEventListenerObject, options);
  };
  proto.removeEventListener = function (
    this: Animation,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ) {
    remove.call(this, type, (listener && TYPES.has(type) ? (wrappers.get(listener) ?? listener) : listener) as EventListenerOrEventListenerObject, options);
  };
  for (const type of TYPES) {
    const prop = `on${type}`;
    const native = Object.getOwnPropertyDescriptor(proto, prop);
    if (!native?.set || !native.get) continue;
    const handlers = new WeakMap<Animation, unknown>();
    Object.defineProperty(proto, prop, {
      configurable: true,
      enumerable: native.enumerable,
      get(this: Animation) {
        return handlers.has(this) ? handlers.get(this) : native.get!.call(this);
      },
      set(this: Animation, handler: unknown) {
        handlers.set(this, handler);
        native.set!.call(this, typeof handler === 'function' ? wrap(handler as EventListener) : handler);
      },
    });
  }
}
