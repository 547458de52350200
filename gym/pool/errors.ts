/**
 * Errors of the gym's serving layer (pool, sessions, HTTP API), with stable codes like
 * ArcadeGymError's. They are separate from ArcadeGymError because they describe the service
 * (capacity, sessions, shutdown), not a game or an env; the HTTP API maps both to
 * `{ "error": { "code", "message" } }`.
 */
export type ServiceErrorCode =
  /** Every slot is taken: retry after `retryAfterMs`. */
  | 'BUSY'
  /** No browser could be launched or reached. */
  | 'BROWSER_UNAVAILABLE'
  | 'POOL_CLOSED'
  /** A reset failed on fresh pages and browsers, again and again. */
  | 'RESET_FAILED'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_CLOSED'
  /** Another reset or step of the same session is still running. */
  | 'SESSION_BUSY'
  | 'SHUTTING_DOWN';

export class ServiceError extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    /** For BUSY: when a retry has a fair chance. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}
