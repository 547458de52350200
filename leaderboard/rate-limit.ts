/**
 * Per-token rate limit: a token bucket of `burst` submissions refilled at `perMinute`. It lives
 * in the server process, which is the only process that accepts submissions.
 */
import { ApiError } from './api-error';

export interface RateLimitConfig {
  burst: number;
  perMinute: number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterS: number };

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    readonly config: RateLimitConfig,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): RateDecision {
    const t = this.now();
    const rate = this.config.perMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: this.config.burst, at: t };
    b.tokens = Math.min(this.config.burst, b.tokens + (t - b.at) * rate);
    b.at = t;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - b.tokens) / rate / 1000)) };
  }
}

/** ARCADE_RATE_LIMIT="burst/perMinute", e.g. "10/6" (the default). */
export function rateLimitFromEnv(value = process.env.ARCADE_RATE_LIMIT, fallback: RateLimitConfig = { burst: 10, perMinute: 6 }): RateLimitConfig {
  const m = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value ?? '');
  return m ? { burst: Number(m[1]), perMinute: Number(m[2]) } : fallback;
}

/**
 * Takes one of `key`'s turns, or throws RATE_LIMITED (429, with Retry-After) saying what there
 * were too many of ("submissions for this token").
 */
export function takeTurn(limiter: RateLimiter, key: string, tooMany: string): void {
  const rate = limiter.take(key);
  if (!rate.ok)
    throw new ApiError(
      'RATE_LIMITED',
      `Too many ${tooMany}; retry in ${rate.retryAfterS} s`,
      { retryAfterS: rate.retryAfterS },
      { 'retry-after': String(rate.retryAfterS) },
    );
}
