import { ServiceError } from '../pool/errors';

/**
 * What a session's lease rests on, for single and vector sessions alike: one call at a time
 * (a second is refused with SESSION_BUSY, never queued) and when the last one started or ended,
 * from which the manager's collector reclaims idle sessions.
 */
export class SessionCalls {
  private inFlight: Promise<unknown> | null = null;
  private last = Date.now();

  /** `busyMessage`: the SESSION_BUSY refusal's text, naming the session. */
  constructor(private readonly busyMessage: string) {}

  get busy(): boolean {
    return this.inFlight !== null;
  }

  /** When the last call started or answered (ms since the epoch); creation time before any. */
  get lastActive(): number {
    return this.last;
  }

  /** Counts as a call for the idle timeout, without one (a session handed to its user now). */
  touch(): void {
    this.last = Date.now();
  }

  run<T>(call: () => Promise<T>): Promise<T> {
    if (this.inFlight) return Promise.reject(new ServiceError('SESSION_BUSY', this.busyMessage));
    this.last = Date.now();
    const tracked = call().finally(() => {
      this.inFlight = null;
      this.last = Date.now();
    });
    this.inFlight = tracked.catch(() => undefined);
    return tracked;
  }

  /** Resolves true when the call in flight (if any) has answered, false after `ms` without. */
  async settle(ms: number): Promise<boolean> {
    if (!this.inFlight) return true;
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([this.inFlight.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
    clearTimeout(timer);
    return done;
  }

  /** Milliseconds of the idle timeout left at `now` (0 once over). */
  expiresInMs(idleTimeoutMs: number, now: number): number {
    return Math.max(0, this.last + idleTimeoutMs - now);
  }
}
