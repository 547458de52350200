/**
 * The CLI side of the HTTP API: where the server is, and a small fetch wrapper that turns the
 * API's `{ error: { code, message } }` answers into one readable line.
 */
import { ApiErrorBody } from './submission-schema';

export function defaultServerUrl(): string {
  return (process.env.ARCADE_SERVER_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
}

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

export async function callApi<T>(url: string, init: RequestInit): Promise<{ status: number; body: T; headers: Headers }> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : e instanceof Error ? e.message : String(e);
    throw new ApiCallError(
      0,
      'UNREACHABLE',
      `Could not reach ${new URL(url).origin} (${cause}). Is the site running (npm start)? Use --server to point elsewhere.`,
    );
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiCallError(res.status, 'BAD_RESPONSE', `${url} answered ${res.status} with something that is not JSON: ${text.slice(0, 200)}`);
  }
  if (!res.ok) {
    const err = ApiErrorBody.safeParse(body);
    if (err.success) throw new ApiCallError(res.status, err.data.error.code, err.data.error.message, err.data.error.details);
    throw new ApiCallError(res.status, 'BAD_RESPONSE', `${url} answered ${res.status}: ${text.slice(0, 200)}`);
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

export interface ServerAuth {
  server: string;
  token: string;
}

/** Where a ticket's episodes are written beside a run file, for `arcade-gym submit` to find. */
export const ticketSidecar = (runFile: string) => `${runFile}.ticket.json`;
