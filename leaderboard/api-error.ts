/**
 * Errors the HTTP API answers with. Every one has a stable code a client can branch on and a
 * message a person can act on; the body is always `{ error: { code, message, details? } }`.
 */
export type ApiErrorCode =
  | 'UNAUTHORIZED'
  | 'INVALID_TOKEN'
  | 'FORBIDDEN'
  | 'AGENT_NAME_TAKEN'
  | 'PLAYER_NAME_TAKEN'
  | 'PLAYER_NOT_FOUND'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INVALID_JSON'
  | 'INVALID_SUBMISSION'
  | 'UNKNOWN_GAME'
  | 'GAME_VERSION_MISMATCH'
  | 'VERIFIER_CHECKSUM_MISMATCH'
  | 'RUNTIME_VERSION_MISMATCH'
  | 'VERIFICATION_FAILED'
  | 'VERIFICATION_TIMEOUT'
  | 'BUDGET_EXCEEDED'
  | 'TICKET_NOT_FOUND'
  | 'TICKET_USED'
  | 'TICKET_MISMATCH'
  | 'IDEMPOTENCY_CONFLICT'
  | 'RATE_LIMITED'
  | 'LIVE_REFUSED'
  | 'EPISODE_IN_PROGRESS'
  | 'RESET_NEEDED'
  | 'TICKET_CLOSED'
  | 'BUSY'
  | 'NOT_FOUND'
  | 'UNAVAILABLE'
  | 'INTERNAL';

const STATUS: Record<ApiErrorCode, number> = {
  UNAUTHORIZED: 401,
  INVALID_TOKEN: 401,
  FORBIDDEN: 403,
  AGENT_NAME_TAKEN: 403,
  PLAYER_NAME_TAKEN: 403,
  PLAYER_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_JSON: 400,
  INVALID_SUBMISSION: 400,
  UNKNOWN_GAME: 422,
  GAME_VERSION_MISMATCH: 422,
  VERIFIER_CHECKSUM_MISMATCH: 422,
  RUNTIME_VERSION_MISMATCH: 422,
  VERIFICATION_FAILED: 422,
  VERIFICATION_TIMEOUT: 422,
  BUDGET_EXCEEDED: 422,
  TICKET_NOT_FOUND: 404,
  TICKET_USED: 409,
  TICKET_MISMATCH: 422,
  IDEMPOTENCY_CONFLICT: 409,
  RATE_LIMITED: 429,
  LIVE_REFUSED: 403,
  EPISODE_IN_PROGRESS: 409,
  RESET_NEEDED: 409,
  TICKET_CLOSED: 409,
  BUSY: 503,
  NOT_FOUND: 404,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = STATUS[code];
  }

  /** The body every error answers with. */
  body(): { error: { code: ApiErrorCode; message: string; details?: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }

  toResponse(): Response {
    return jsonResponse(this.status, this.body(), this.headers);
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

/** A 400 for a request body or query that failed its schema, naming where: the first issue's path and message. */
export function invalidAt(what: string, issue: { path: PropertyKey[]; message: string }): ApiError {
  return new ApiError('INVALID_SUBMISSION', `Invalid ${what} at "${issue.path.join('.') || '(root)'}": ${issue.message}`, { path: issue.path.map(String) });
}
